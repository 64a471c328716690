package io.tcpload.runner.dryrun;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.codec.ResponseInspector.Inspection;
import io.tcpload.runner.correlate.ResponseValues;
import io.tcpload.runner.correlate.Variables;
import io.tcpload.runner.dryrun.DryRunWire.Received;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.ValueRule;
import io.tcpload.runner.report.DryRunText;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What a dry run prints, masked: the bytes, each response as it was read and judged, the values it
 * carried. It holds the mask, which grows by each value a response hands the connection when values
 * carried from responses are masked, so that value is hidden from that response on. Not
 * thread-safe: one dry run.
 */
final class Printout {
    private final PrintStream out;
    private DryRunMask mask;

    Printout(PrintStream out, DryRunMask mask) {
        this.out = out;
        this.mask = mask;
    }

    /** The mask as it stands: what has been hidden so far. */
    DryRunMask mask() {
        return mask;
    }

    void line(String text) {
        out.println(text);
    }

    void blank() {
        out.println();
    }

    /** Bytes as hex and text, sixteen to a line, masked. */
    void dump(byte[] data) {
        for (String line : DryRunText.hexLines(data, mask.over(data))) {
            out.println(line);
        }
    }

    /** A value a response handed the connection. */
    record Extracted(String name, byte[] bytes) {}

    /** How a response was judged, and the values it handed the connection. */
    record Judged(boolean success, List<Extracted> extracted) {}

    /**
     * Prints the response, how it was read and judged; whether it is a success and the values it
     * handed the connection, which settle into {@code variables} as the load's would. Those values
     * are masked (when asked) in the response that carries them too.
     *
     * @param sent the bytes the request sent for each echo rule's variable, or null
     */
    Judged response(
            Received received,
            boolean http,
            ResponseSpec judged,
            byte[][] sent,
            Variables variables) {
        Inspection inspection = received.inspection();
        ResponseValues rule = ResponseValues.of(judged, variablesOf(variables));
        ResponseValues.Checked checked = rule == null ? null : check(rule, inspection);
        List<Extracted> extracted = new ArrayList<>();
        for (int i = 0; checked != null && i < judged.extracts().size(); i++) {
            byte[] value = checked.extracted()[i];
            if (value != null) {
                // Masked even when not taken (the code failed): it may still be a credential.
                mask = mask.withExtracted(value);
                if (inspection.success()) {
                    extracted.add(new Extracted(judged.extracts().get(i).name(), value));
                }
            }
        }
        out.println("  response, " + DryRunText.bytes(received.bytes().length) + ":");
        dump(received.bytes());
        out.println(
                "  framing: "
                        + DryRunText.framing(inspection, http, judged)
                        + (http ? ", judged:" : ""));
        if (http) {
            dump(inspection.body());
        }
        out.println("  code: " + DryRunText.code(inspection, http, judged));
        boolean success = inspection.success();
        String failure =
                rule == null ? null : carried(inspection, judged, sent, variables, rule, checked);
        if (failure != null) {
            success = false;
        }
        out.println(
                "  verdict: "
                        + (success ? "success" : "failure")
                        + (failure == null ? "" : " (" + failure + ")"));
        return new Judged(success, extracted);
    }

    /** The response's values read as the load reads them: extracted, and echoes found. */
    private static ResponseValues.Checked check(ResponseValues rule, Inspection inspection) {
        ByteBuf head = Unpooled.wrappedBuffer(inspection.head());
        ByteBuf body = Unpooled.wrappedBuffer(inspection.body());
        return rule.check(
                head,
                0,
                inspection.head().length,
                body,
                0,
                inspection.body().length,
                inspection.success());
    }

    /**
     * Shows the values the response carried (extracted into the connection's variables, checked
     * against what was sent) as the load reads them; the reason they fail it, or null.
     */
    private String carried(
            Inspection inspection,
            ResponseSpec judged,
            byte[][] sent,
            Variables variables,
            ResponseValues rule,
            ResponseValues.Checked checked) {
        for (int i = 0; i < judged.extracts().size(); i++) {
            ValueRule extract = judged.extracts().get(i);
            byte[] value = checked.extracted()[i];
            out.println(
                    "  extract "
                            + extract.name()
                            + " ("
                            + extract.describe()
                            + "): "
                            + (!inspection.success()
                                    ? "not taken, the response failed its code"
                                    : value == null ? checked.failures()[i] : mask.shown(value)));
        }
        for (int i = 0; i < judged.echoes().size(); i++) {
            ValueRule echo = judged.echoes().get(i);
            byte[] value = checked.echoed()[i];
            byte[] expected = sent == null ? null : sent[i];
            out.println(
                    "  echo "
                            + echo.name()
                            + " ("
                            + echo.describe()
                            + "): "
                            + (expected == null
                                    ? "not checked, the request did not send it"
                                    : "sent "
                                            + mask.shown(expected)
                                            + ", found "
                                            + (value == null
                                                    ? "none ("
                                                            + checked.failures()[
                                                                    judged.extracts().size() + i]
                                                            + ")"
                                                    : mask.shown(value))));
        }
        return rule.settle(checked, sent, variables);
    }

    private static List<String> variablesOf(Variables variables) {
        return variables == null ? List.of() : variables.names();
    }
}
