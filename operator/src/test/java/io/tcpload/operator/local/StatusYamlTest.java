package io.tcpload.operator.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.tcpload.operator.crd.DryRunExchange;
import io.tcpload.operator.crd.DryRunStatus;
import io.tcpload.operator.crd.DryRunValue;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusYamlTest {
    @Test
    void hexOfDigitBytesIsWrittenAsAStringNotANumber() throws Exception {
        DryRunValue session = new DryRunValue();
        session.setName("SESSION");
        session.setBytes(9);
        session.setValue("533030303030303031");
        DryRunExchange exchange = new DryRunExchange();
        exchange.setName("signon");
        exchange.setVerdict("success");
        exchange.setRequestBytes(4);
        exchange.setRequest("30303030");
        exchange.setExtracted(List.of(session));
        DryRunStatus dryRun = new DryRunStatus();
        dryRun.setRequests(1);
        dryRun.setExchanges(List.of(exchange));
        TcpLoadTestStatus status = new TcpLoadTestStatus();
        status.setDryRun(dryRun);

        String yaml = StatusYaml.render(status);

        JsonNode read = new YAMLMapper().readTree(yaml).path("status").path("dryRun");
        JsonNode first = read.path("exchanges").path(0);
        assertThat(first.path("request").isTextual()).as(yaml).isTrue();
        assertThat(first.path("request").asText()).isEqualTo("30303030");
        assertThat(first.path("extracted").path(0).path("value").asText())
                .isEqualTo("533030303030303031");
        assertThat(first.path("requestBytes").isInt()).isTrue();
        assertThat(read.path("requests").asInt()).isOne();
    }
}
