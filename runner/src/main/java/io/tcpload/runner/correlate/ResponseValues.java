package io.tcpload.runner.correlate;

import io.netty.buffer.ByteBuf;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.ValueRule;
import java.util.Arrays;
import java.util.List;

/**
 * What one response rule carries from its responses: the values it extracts into the connection's
 * variables ({@code rsp_extract}) and the values it checks against what the request sent ({@code
 * rsp_echo}). {@link #check} reads them from a framed response (on the decoder, while the bytes are
 * at hand); {@link #settle} then sets the connection's variables and tells whether the response
 * fails (on the connection, which knows what it sent).
 *
 * <p>Failure reasons are stable texts without the values, so that the run's error summary
 * aggregates them: {@code extract SESSION: no <session> in the body}, {@code echo TRACE: ...}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ResponseValues {
    private final ValueFinder[] extracts;
    private final int[] variableIndex;
    private final ValueFinder[] echoes;

    private ResponseValues(ValueFinder[] extracts, int[] variableIndex, ValueFinder[] echoes) {
        this.extracts = extracts;
        this.variableIndex = variableIndex;
        this.echoes = echoes;
    }

    /**
     * The compiled rules of {@code spec}, or null when it carries no values.
     *
     * @param variables the profile's variables, by index ({@code Profile.variables()})
     */
    public static ResponseValues of(ResponseSpec spec, List<String> variables) {
        if (!spec.correlates()) {
            return null;
        }
        ValueFinder[] extracts = new ValueFinder[spec.extracts().size()];
        int[] index = new int[extracts.length];
        for (int i = 0; i < extracts.length; i++) {
            ValueRule rule = spec.extracts().get(i);
            extracts[i] = new ValueFinder(rule);
            index[i] = variables.indexOf(rule.name());
            if (index[i] < 0) {
                throw new IllegalArgumentException("unknown variable " + rule.name());
            }
        }
        ValueFinder[] echoes =
                spec.echoes().stream().map(ValueFinder::new).toArray(ValueFinder[]::new);
        return new ResponseValues(extracts, index, echoes);
    }

    /** The names checked by echo, in the order {@link Checked#echoed} holds them. */
    public List<String> echoNames() {
        return Arrays.stream(echoes).map(f -> f.rule().name()).toList();
    }

    /** Whether some rule reads the head. */
    public boolean readsHead() {
        return reads(CodeLocation.HEAD);
    }

    /** Whether some rule reads the body. */
    public boolean readsBody() {
        return reads(CodeLocation.BODY);
    }

    private boolean reads(CodeLocation location) {
        for (ValueFinder finder : extracts) {
            if (finder.rule().location() == location) {
                return true;
            }
        }
        for (ValueFinder finder : echoes) {
            if (finder.rule().location() == location) {
                return true;
            }
        }
        return false;
    }

    /**
     * What a response carried.
     *
     * @param codeSuccess whether its code (and status) passed
     * @param extracted by extraction rule, the value found or null
     * @param echoed by echo rule, the value found or null
     * @param failures by extraction rule then echo rule, why nothing was found, or null
     */
    public record Checked(
            boolean codeSuccess, byte[][] extracted, byte[][] echoed, String[] failures) {}

    /** Reads every rule's value from a framed response's head and body areas. */
    public Checked check(
            ByteBuf head,
            int headIndex,
            int headLength,
            ByteBuf body,
            int bodyIndex,
            int bodyLength,
            boolean codeSuccess) {
        byte[][] extracted = new byte[extracts.length][];
        byte[][] echoed = new byte[echoes.length][];
        String[] failures = new String[extracts.length + echoes.length];
        for (int i = 0; i < extracts.length; i++) {
            ValueFinder.Found found =
                    find(extracts[i], head, headIndex, headLength, body, bodyIndex, bodyLength);
            extracted[i] = found.value();
            failures[i] = found.failure();
        }
        for (int i = 0; i < echoes.length; i++) {
            ValueFinder.Found found =
                    find(echoes[i], head, headIndex, headLength, body, bodyIndex, bodyLength);
            echoed[i] = found.value();
            failures[extracts.length + i] = found.failure();
        }
        return new Checked(codeSuccess, extracted, echoed, failures);
    }

    private static ValueFinder.Found find(
            ValueFinder finder,
            ByteBuf head,
            int headIndex,
            int headLength,
            ByteBuf body,
            int bodyIndex,
            int bodyLength) {
        if (finder.rule().location() == CodeLocation.HEAD) {
            return head == null
                    ? new ValueFinder.Found(null, "the head was not kept")
                    : finder.find(head, headIndex, headLength);
        }
        return body == null
                ? new ValueFinder.Found(null, "the body was not kept")
                : finder.find(body, bodyIndex, bodyLength);
    }

    /**
     * Applies a checked response to the connection: each extracted value is set, or unset when it
     * was not found or the response failed its code; each echo is compared with what the request
     * sent ({@code sent}, by echo rule, null for a value the request did not send: not checked).
     *
     * @return null when the response stands as its code judged it, else the first reason it fails
     */
    public String settle(Checked checked, byte[][] sent, Variables variables) {
        String failure = null;
        for (int i = 0; i < extracts.length; i++) {
            byte[] value = checked.codeSuccess() ? checked.extracted()[i] : null;
            if (variables != null) {
                variables.set(variableIndex[i], value);
            }
            if (failure == null && checked.codeSuccess() && value == null) {
                failure = "extract " + extracts[i].rule().name() + ": " + checked.failures()[i];
            }
        }
        for (int i = 0; i < echoes.length; i++) {
            byte[] expected = sent == null ? null : sent[i];
            if (expected == null || failure != null || !checked.codeSuccess()) {
                continue;
            }
            byte[] found = checked.echoed()[i];
            String name = echoes[i].rule().name();
            if (found == null) {
                failure = "echo " + name + ": " + checked.failures()[extracts.length + i];
            } else if (!Arrays.equals(found, expected)) {
                failure = "echo " + name + ": the response carries another value than was sent";
            }
        }
        return failure;
    }

    /** A value as the dry run shows it: in double quotes, other than printable ASCII escaped. */
    public static String shown(byte[] value) {
        return "\"" + ByteText.display(ByteText.decode(value)) + "\"";
    }
}
