package io.tcpload.operator.local;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import java.io.UncheckedIOException;
import java.util.Map;

/** The {@code status:} block as {@code kubectl get tlt -o yaml} shows it. Pure. */
final class StatusYaml {
    private static final YAMLMapper MAPPER =
            YAMLMapper.builder()
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                    // A string of digits (the hex of digit bytes) stays a string when read back.
                    .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                    .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
                    .serializationInclusion(JsonInclude.Include.NON_EMPTY)
                    .build();

    private StatusYaml() {}

    static String render(TcpLoadTestStatus status) {
        try {
            return MAPPER.writeValueAsString(Map.of("status", status));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write the status as YAML", e);
        }
    }
}
