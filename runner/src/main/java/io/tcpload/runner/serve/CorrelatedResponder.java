package io.tcpload.runner.serve;

import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.NamedRequest;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.RequestSpec;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.ValueRule;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo target's answers to a profile whose requests differ in how they are judged, or whose
 * responses carry values ({@code rsp_extract}, {@code rsp_echo}): each request is recognised by its
 * template (the literal text around its {@code $(NAME)} places) and answered with its own success
 * code; a value its response extracts is issued by the target (a new one per connection, kept as
 * that connection's), one it echoes is copied from the request, and a request that carries an
 * issued value must carry the one issued on its connection, or is answered with the failure code
 * (counted as rejected). Raw TCP profiles, values in the body by XML tag or JSON key.
 *
 * <p>Thread-safe: immutable but for its counters; a connection's issued values are its {@link
 * Session}, confined to its event loop.
 */
public final class CorrelatedResponder {
    private final List<Shape> shapes;
    private final ResponseSpec framing;
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();

    /** One request of the profile: how to recognise it, and how its responses are judged. */
    private record Shape(
            String name, Pattern pattern, List<String> holes, ResponseSpec judged, int literals) {}

    private CorrelatedResponder(List<Shape> shapes, ResponseSpec framing) {
        this.shapes = shapes;
        this.framing = framing;
    }

    /**
     * Whether the profile needs answers per request: its responses carry values, a request is a
     * sign-on, or requests of a mix are judged apart.
     */
    public static boolean appliesTo(Profile profile) {
        boolean carries =
                profile.response().correlates()
                        || profile.hasSignOn()
                        || profile.mix().stream().anyMatch(n -> n.response().correlates());
        if (carries || profile.request().http()) {
            // An HTTP profile that carries values is refused by forProfile, with the reason.
            return carries;
        }
        for (NamedRequest named : profile.mix()) {
            if (!named.response().equals(profile.response())) {
                return true;
            }
        }
        return false;
    }

    /**
     * @throws IllegalArgumentException naming what the demo target cannot answer (HTTP, a rule
     *     outside the body, a fixed or regex value)
     */
    public static CorrelatedResponder forProfile(Profile profile) {
        if (profile.request().http()) {
            throw new IllegalArgumentException(
                    "the demo target answers per request (values carried, requests judged apart)"
                            + " for raw TCP profiles only");
        }
        List<Shape> shapes = new ArrayList<>();
        if (profile.isMix()) {
            for (NamedRequest named : profile.mix()) {
                shapes.add(shape(named.name(), named.request(), named.response()));
            }
        } else {
            shapes.add(shape("request", profile.request(), profile.response()));
        }
        for (Shape shape : shapes) {
            check(shape.name(), shape.judged());
        }
        // The most literal text first: a template that says more is the better match.
        shapes.sort(Comparator.comparingInt(Shape::literals).reversed());
        return new CorrelatedResponder(List.copyOf(shapes), profile.response());
    }

    private static void check(String name, ResponseSpec judged) {
        if (judged.codeLocation() != CodeLocation.BODY) {
            throw new IllegalArgumentException(
                    "["
                            + name
                            + "]: the demo target places a carried value's code in the body only");
        }
        List<ValueRule> rules = new ArrayList<>(judged.extracts());
        rules.addAll(judged.echoes());
        for (ValueRule rule : rules) {
            if (rule.location() != CodeLocation.BODY
                    || (rule.type() != ValueRule.Type.XML && rule.type() != ValueRule.Type.JSON)) {
                throw new IllegalArgumentException(
                        "line "
                                + rule.line()
                                + ": the demo target carries values in the body by xml tag or"
                                + " json key only, not "
                                + rule.describe());
            }
        }
    }

    private static Shape shape(String name, RequestSpec request, ResponseSpec judged) {
        String template = request.headTemplate() + request.bodyTemplate();
        StringBuilder regex = new StringBuilder();
        List<String> holes = new ArrayList<>();
        int literals = 0;
        int at = 0;
        while (true) {
            int open = template.indexOf("$(", at);
            int close = open < 0 ? -1 : template.indexOf(')', open + 2);
            if (open < 0 || close < 0) {
                String tail = template.substring(at);
                regex.append(Pattern.quote(tail));
                literals += tail.length();
                break;
            }
            String literal = template.substring(at, open);
            regex.append(Pattern.quote(literal));
            literals += literal.length();
            regex.append("(.*?)");
            holes.add(template.substring(open + 2, close));
            at = close + 1;
        }
        return new Shape(
                name, Pattern.compile(regex.toString(), Pattern.DOTALL), holes, judged, literals);
    }

    /** One connection's issued values, by variable name. */
    public static final class Session {
        private final Map<String, byte[]> issued = new HashMap<>();
    }

    /** Requests answered with the failure code for a missing or wrong issued value. */
    public long rejected() {
        return rejected.get();
    }

    /** Requests that matched no template of the profile (answered with the first's failure). */
    public long unknown() {
        return unknown.get();
    }

    /**
     * The response to one request (its whole bytes) on the connection of {@code session}.
     *
     * @param fail answer with the failure code whatever the request (the target's failure rate)
     */
    public byte[] answer(byte[] request, Session session, boolean fail) {
        String text = ByteText.decode(request);
        for (Shape shape : shapes) {
            Matcher matcher = shape.pattern().matcher(text);
            if (matcher.matches()) {
                return answer(shape, matcher, session, fail);
            }
        }
        unknown.incrementAndGet();
        return response(shapes.get(0).judged(), false, List.of());
    }

    private byte[] answer(Shape shape, Matcher matcher, Session session, boolean fail) {
        Map<String, byte[]> sent = new HashMap<>();
        boolean accepted = true;
        for (int i = 0; i < shape.holes().size(); i++) {
            String hole = shape.holes().get(i);
            byte[] value = ByteText.encode(matcher.group(i + 1));
            sent.putIfAbsent(hole, value);
            if (session.issued.containsKey(hole) || issuedAnywhere(hole)) {
                byte[] expected = session.issued.get(hole);
                if (expected == null || !Arrays.equals(expected, value)) {
                    accepted = false;
                }
            }
        }
        if (!accepted) {
            rejected.incrementAndGet();
            return response(shape.judged(), false, List.of());
        }
        List<byte[]> snippets = new ArrayList<>();
        ResponseSpec judged = shape.judged();
        for (ValueRule extract : judged.extracts()) {
            byte[] value = sent.get(extract.name());
            if (value == null) {
                value =
                        String.format("S%08d", issued.incrementAndGet())
                                .getBytes(StandardCharsets.US_ASCII);
            }
            session.issued.put(extract.name(), value);
            snippets.add(snippet(judged, extract, value));
        }
        for (ValueRule echo : judged.echoes()) {
            byte[] value = sent.getOrDefault(echo.name(), new byte[0]);
            snippets.add(snippet(judged, echo, value));
        }
        return response(judged, !fail, snippets);
    }

    /** Whether some response of the profile issues the variable {@code name}. */
    private boolean issuedAnywhere(String name) {
        for (Shape shape : shapes) {
            for (ValueRule extract : shape.judged().extracts()) {
                if (extract.name().equals(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static byte[] snippet(ResponseSpec judged, ValueRule rule, byte[] value) {
        byte[] tag = ByteText.encode(rule.tag());
        if (rule.type() == ValueRule.Type.XML) {
            return concat(
                    tag, value, ascii("</" + ResponseFactory.xmlElementName(rule.tag()) + ">"));
        }
        byte[] member = concat(tag, ascii(":\""), value, ascii("\""));
        return judged.codeType() == CodeType.JSON ? concat(ascii(","), member) : member;
    }

    /** A framed response with the rule's success or failure code and the values' snippets. */
    private byte[] response(ResponseSpec judged, boolean success, List<byte[]> snippets) {
        byte[] successCode = ByteText.encode(judged.codeSuccess());
        byte[] code = success ? successCode : ResponseFactory.failureCode(successCode);
        byte[] values = concat(snippets.toArray(new byte[0][]));
        byte[] body =
                switch (judged.codeType()) {
                    case FIXED ->
                            concat(
                                    ascii(" ".repeat(Math.max(0, judged.fixedCodeBegin() - 1))),
                                    code,
                                    ascii(success ? "SUCCESS" : "FAILURE"),
                                    values);
                    case XML ->
                            concat(
                                    ascii("<root><head>"),
                                    ByteText.encode(judged.codeTag()),
                                    code,
                                    ascii(
                                            "</"
                                                    + ResponseFactory.xmlElementName(
                                                            judged.codeTag())
                                                    + "></head>"),
                                    values,
                                    ascii("</root>"));
                    case JSON ->
                            concat(
                                    ascii("{"),
                                    ByteText.encode(judged.codeTag()),
                                    ascii(":\""),
                                    code,
                                    ascii("\""),
                                    values,
                                    ascii("}"));
                };
        int headLength = framing.headLength();
        byte[] head = new byte[headLength];
        Arrays.fill(head, (byte) '0');
        long length =
                framing.lengthType() == LengthType.BODY ? body.length : headLength + body.length;
        String digits = Long.toString(length);
        int from = framing.lengthBegin() - 1;
        byte[] padded =
                ascii("0".repeat(Math.max(0, framing.lengthWidth() - digits.length())) + digits);
        System.arraycopy(padded, 0, head, from, Math.min(padded.length, framing.lengthWidth()));
        return concat(head, body);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
