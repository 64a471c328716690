package io.tcpload.operator.results;

import io.tcpload.operator.crd.DryRunExchange;
import io.tcpload.operator.crd.DryRunStatus;
import io.tcpload.operator.crd.DryRunValue;
import io.tcpload.runner.report.DryRunResult;
import io.tcpload.runner.report.DryRunResult.Exchange;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Turns a runner's dry run result into {@code status.dryRun} and one sentence about it. Pure. */
public final class DryRunSummaries {
    private DryRunSummaries() {}

    public static DryRunStatus from(DryRunResult result) {
        DryRunStatus status = new DryRunStatus();
        status.setTarget(result.target());
        status.setRequests(result.requests());
        status.setSuccesses(result.successes());
        status.setMasked(new ArrayList<>(result.masked()));
        List<DryRunExchange> exchanges = new ArrayList<>();
        for (Exchange exchange : result.exchanges()) {
            DryRunExchange row = new DryRunExchange();
            row.setName(exchange.name());
            row.setVerdict(exchange.verdict());
            row.setRequestBytes(exchange.requestBytes());
            row.setRequest(exchange.request());
            row.setResponseBytes(exchange.responseBytes());
            row.setResponse(exchange.response());
            row.setFraming(exchange.framing());
            row.setCode(exchange.code());
            row.setError(exchange.error());
            List<DryRunValue> extracted = new ArrayList<>();
            for (DryRunResult.Value value : exchange.extracted()) {
                DryRunValue item = new DryRunValue();
                item.setName(value.name());
                item.setBytes(value.bytes());
                item.setValue(value.value());
                extracted.add(item);
            }
            row.setExtracted(extracted);
            exchanges.add(row);
        }
        status.setExchanges(exchanges);
        status.setOmitted(result.omitted() == 0 ? null : result.omitted());
        return status;
    }

    /**
     * {@code Dry run against HOST:PORT: 1 of 2 responses a success; failed: ask (code "999999")}.
     */
    public static String sentence(DryRunResult result) {
        StringBuilder text =
                new StringBuilder("Dry run against ")
                        .append(result.target())
                        .append(": ")
                        .append(result.successes())
                        .append(" of ")
                        .append(result.requests())
                        .append(result.requests() == 1 ? " response" : " responses")
                        .append(" a success");
        String failed =
                result.exchanges().stream()
                        .filter(exchange -> !"success".equals(exchange.verdict()))
                        .map(DryRunSummaries::why)
                        .collect(Collectors.joining(", "));
        if (!failed.isEmpty()) {
            text.append("; failed: ").append(failed);
        }
        return text.append('.').toString();
    }

    private static String why(Exchange exchange) {
        if (exchange.error() != null) {
            return exchange.name() + " (" + exchange.error() + ")";
        }
        return exchange.name()
                + (exchange.code() == null
                        ? " (no code found)"
                        : " (code \"" + exchange.code() + "\")");
    }
}
