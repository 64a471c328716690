package io.tcpload.runner.template;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.format.IntFormat;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.NamedRequest;
import io.tcpload.runner.profile.ParameterSpec;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.RequestSpec;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A profile's request, compiled once: the head and body templates as literal byte runs and slots
 * (parameter occurrences and {@code $(length)}), plus the parameters' shared state (COUNTER
 * positions, FILE lines, the DATETIME cache) for this runner.
 *
 * <p>A request is the evaluated head immediately followed by the evaluated body. Every occurrence
 * of a parameter is evaluated on its own, head first, left to right, so a COUNTER used twice
 * advances twice per request. Every {@code $(length)} is the body or total byte count after
 * substitution (counting the length fields themselves in total mode), zero-padded to {@code
 * lengthWidth} digits, or exactly as many digits as needed when the width is 0 (HTTP).
 *
 * <p>Threading: one instance serves the whole runner. {@link #writeRequest} may be called from many
 * threads at once; parameter state is shared lock-free, and building allocates nothing in steady
 * state (the values drawn for a request are held in per-thread scratch arrays).
 */
public final class RequestTemplate {

    /** How often the request bytes change. */
    public enum Kind {
        /** No parameters are used: build once and resend the same bytes. */
        STATIC,
        /** Only CONNECTID is used: build once per connection. */
        PER_CONNECTION,
        /** Some parameter changes per request. */
        PER_REQUEST
    }

    /** Refuses length widths that could only be a mistake. */
    static final int MAX_LENGTH_WIDTH = 1024;

    private final Segment[] segments;
    private final int bodyStart;
    private final int headLengthFields;
    private final int bodyLengthFields;
    private final int lengthWidth;
    private final LengthType lengthType;
    private final Kind kind;
    private final int sizeHint;
    private final ThreadLocal<Segment.Draw> scratch;

    /** The values its response checks by echo ({@code rsp_echo}), in the rule's order. */
    private final List<String> echoNames;

    /**
     * By echo name, the segment of its first occurrence, or -1 when the request does not send it.
     */
    private final int[] echoSlots;

    /** For STATIC templates: the one request. */
    private final byte[] staticRequest;

    private RequestTemplate(
            List<Segment> head,
            List<Segment> body,
            int lengthWidth,
            LengthType lengthType,
            List<String> names,
            List<String> echoNames) {
        List<Segment> all = new ArrayList<>(head);
        all.addAll(body);
        this.segments = all.toArray(new Segment[0]);
        this.echoNames = List.copyOf(echoNames);
        this.echoSlots = new int[echoNames.size()];
        boolean echoes = false;
        for (int k = 0; k < echoSlots.length; k++) {
            echoSlots[k] = names.indexOf(echoNames.get(k));
            echoes |= echoSlots[k] >= 0;
        }
        this.bodyStart = head.size();
        this.headLengthFields = countLengthFields(head);
        this.bodyLengthFields = countLengthFields(body);
        this.lengthWidth = lengthWidth;
        this.lengthType = lengthType;
        // A request whose sent values are checked is built each time, so they can be taken.
        this.kind = echoes ? Kind.PER_REQUEST : kindOf(all);
        int slots = segments.length;
        this.scratch = ThreadLocal.withInitial(() -> new Segment.Draw(slots));
        if (kind == Kind.STATIC) {
            ByteBuf once = Unpooled.buffer();
            // A request that varies in nothing and does not fit its length field would fail every
            // send of the run: refused before it (RequestBuildException), as a profile error.
            build(once, 0);
            this.staticRequest = new byte[once.readableBytes()];
            once.readBytes(staticRequest);
            this.sizeHint = Math.max(staticRequest.length, 16);
        } else {
            this.staticRequest = null;
            long hint = 0;
            for (Segment segment : segments) {
                hint += segment.maxLength();
            }
            this.sizeHint = (int) Math.min(hint, 1 << 20);
        }
    }

    /**
     * Compiles the profile's head+body templates and creates the shared parameter state; no
     * environment variables are set.
     */
    public static RequestTemplate compile(Profile profile, RunnerSlice slice) {
        return compile(profile, slice, Clock.systemDefaultZone(), name -> null);
    }

    /**
     * As {@link #compile(Profile, RunnerSlice)}, ENV parameters read from {@code environment}.
     *
     * @throws IllegalArgumentException also when an ENV parameter's variable is not set
     */
    public static RequestTemplate compile(
            Profile profile, RunnerSlice slice, Function<String, String> environment) {
        return compile(profile, slice, Clock.systemDefaultZone(), environment);
    }

    /** As {@link #compile(Profile, RunnerSlice, Clock, Function)}, with no variables set. */
    public static RequestTemplate compile(Profile profile, RunnerSlice slice, Clock clock) {
        return compile(profile, slice, clock, name -> null);
    }

    /**
     * As {@link #compile(Profile, RunnerSlice)}, with DATETIME values taken from {@code clock}
     * (whole seconds) and rendered in its zone.
     *
     * @throws IllegalArgumentException with a plain sentence when a template refers to an
     *     undeclared parameter or has an unclosed {@code $(}, or a FILE has no lines
     */
    public static RequestTemplate compile(
            Profile profile, RunnerSlice slice, Clock clock, Function<String, String> environment) {
        Parameters parameters =
                new Parameters(
                        profile.parameters(), profile.variables(), slice, clock, environment);
        return compile(profile.request(), echoNames(profile.response()), parameters);
    }

    private static List<String> echoNames(io.tcpload.runner.profile.ResponseSpec response) {
        return response.echoes().stream().map(io.tcpload.runner.profile.ValueRule::name).toList();
    }

    /**
     * Compiles every request of a profile: the named requests of a transaction mix, in file order,
     * or the one {@code [request]}. They share one parameter state, so that a COUNTER used by two
     * requests of a mix is one sequence.
     *
     * @throws IllegalArgumentException as {@link #compile(Profile, RunnerSlice, Clock, Function)}
     */
    public static List<RequestTemplate> compileAll(
            Profile profile, RunnerSlice slice, Clock clock, Function<String, String> environment) {
        Parameters parameters =
                new Parameters(
                        profile.parameters(), profile.variables(), slice, clock, environment);
        if (!profile.isMix()) {
            return List.of(compile(profile.request(), echoNames(profile.response()), parameters));
        }
        List<RequestTemplate> templates = new ArrayList<>(profile.mix().size());
        for (NamedRequest named : profile.mix()) {
            try {
                templates.add(compile(named.request(), echoNames(named.response()), parameters));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "[request." + named.name() + "]: " + e.getMessage(), e);
            }
        }
        return templates;
    }

    private static RequestTemplate compile(
            RequestSpec request, List<String> echoNames, Parameters parameters) {
        if (request.lengthWidth() > MAX_LENGTH_WIDTH) {
            throw new IllegalArgumentException(
                    "length width "
                            + request.lengthWidth()
                            + " is more than "
                            + MAX_LENGTH_WIDTH
                            + " digits");
        }
        List<String> names = new ArrayList<>();
        List<Segment> head =
                parse(
                        request.headTemplate(),
                        where("head", request.headLine()),
                        request.lengthWidth(),
                        parameters,
                        names);
        List<Segment> body =
                parse(
                        request.bodyTemplate(),
                        where("body", request.bodyLine()),
                        request.lengthWidth(),
                        parameters,
                        names);
        try {
            return new RequestTemplate(
                    head, body, request.lengthWidth(), request.lengthType(), names, echoNames);
        } catch (RequestBuildException e) {
            throw new IllegalArgumentException(
                    where("body", request.bodyLine())
                            + ": "
                            + e.getMessage()
                            + ", and nothing in the request varies: no request could be sent",
                    e);
        }
    }

    /** The values its response checks by echo, in the order {@link #writeRequest} returns them. */
    public List<String> echoNames() {
        return echoNames;
    }

    public Kind kind() {
        return kind;
    }

    /** A good initial buffer size: the exact size when STATIC, else an upper estimate. */
    public int sizeHint() {
        return sizeHint;
    }

    /**
     * Appends one complete request to out. connectionId feeds CONNECTID. Safe to call from many
     * event loops at once (parameter state is shared lock-free).
     *
     * @throws RequestBuildException when the $(length) value does not fit lengthWidth digits;
     *     nothing is left in out then. It has no stack trace: a run may throw one per request
     */
    public void writeRequest(ByteBuf out, long connectionId) {
        if (staticRequest != null) {
            out.writeBytes(staticRequest);
            return;
        }
        build(out, connectionId);
    }

    /**
     * As {@link #writeRequest(ByteBuf, long)}, with the connection's extracted values for its
     * {@code $(NAME)} variables.
     *
     * @return by echo name ({@link #echoNames}), the bytes sent for it, null for one not sent; null
     *     when the response checks no echo
     * @throws MissingValueException when a variable it needs is unset; nothing is left in out
     */
    public byte[][] writeRequest(
            ByteBuf out, long connectionId, io.tcpload.runner.correlate.Variables variables) {
        if (staticRequest != null) {
            writeRequest(out, connectionId);
            return null;
        }
        Segment.Draw draw = scratch.get();
        draw.variables = variables;
        try {
            return build(out, connectionId);
        } finally {
            draw.variables = null;
        }
    }

    private byte[][] build(ByteBuf out, long connectionId) {
        Segment.Draw draw = scratch.get();
        long headBytes = 0;
        long bodyBytes = 0;
        for (int i = 0; i < bodyStart; i++) {
            headBytes += segments[i].draw(draw, i, connectionId);
        }
        for (int i = bodyStart; i < segments.length; i++) {
            bodyBytes += segments[i].draw(draw, i, connectionId);
        }
        int lengthFields = headLengthFields + bodyLengthFields;
        long total = headBytes + bodyBytes;
        if (lengthFields > 0) {
            resolveLength(draw, headBytes, bodyBytes);
            total += (long) lengthFields * draw.lengthDigits;
        }
        out.ensureWritable((int) Math.min(total, Integer.MAX_VALUE));
        if (echoSlots.length == 0) {
            for (int i = 0; i < segments.length; i++) {
                segments[i].write(out, draw, i);
            }
            return null;
        }
        byte[][] sent = new byte[echoSlots.length][];
        for (int i = 0; i < segments.length; i++) {
            int from = out.writerIndex();
            segments[i].write(out, draw, i);
            for (int k = 0; k < echoSlots.length; k++) {
                if (echoSlots[k] == i) {
                    sent[k] =
                            io.netty.buffer.ByteBufUtil.getBytes(
                                    out, from, out.writerIndex() - from);
                }
            }
        }
        return sent;
    }

    /**
     * Sets the length field's value and digit count, or fails when it does not fit: never cut to
     * its leading digits, as wrktcp does, since the peer would read a wrong length.
     */
    private void resolveLength(Segment.Draw draw, long headBytes, long bodyBytes) {
        boolean total = lengthType == LengthType.TOTAL;
        long base = total ? headBytes + bodyBytes : bodyBytes;
        // Length fields inside what is counted count themselves.
        int selfFields = total ? headLengthFields + bodyLengthFields : bodyLengthFields;
        if (lengthWidth > 0) {
            long value = base + (long) selfFields * lengthWidth;
            if (decimalDigits(value) > lengthWidth) {
                throw new RequestBuildException(doesNotFit(value, total), true);
            }
            draw.lengthValue = value;
            draw.lengthDigits = lengthWidth;
            return;
        }
        // Width 0: the fewest digits d with digits(base + selfFields * d) == d. Starting at 1,
        // each step can only grow, and stops within a few rounds.
        int digits = 1;
        long value = base + selfFields;
        while (decimalDigits(value) != digits) {
            digits = decimalDigits(value);
            value = base + (long) selfFields * digits;
        }
        draw.lengthValue = value;
        draw.lengthDigits = digits;
    }

    /**
     * Why a request whose length is {@code value} is not sent: the field, the size and what the
     * field holds. One sentence per size, so that the failures of a run aggregate by it.
     */
    private String doesNotFit(long value, boolean total) {
        // The value has more digits than the width, so the width is at most 18 and this fits.
        long most = 1;
        for (int i = 0; i < lengthWidth; i++) {
            most *= 10;
        }
        return "$(length) of "
                + value
                + (total ? " request bytes" : " body bytes")
                + " does not fit req_len_len = "
                + lengthWidth
                + " digits (at most "
                + (most - 1)
                + ")";
    }

    static int decimalDigits(long value) {
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        return digits;
    }

    private static String where(String part, int line) {
        return "request " + part + " template" + (line > 0 ? " (line " + line + ")" : "");
    }

    /** Splits a template at each {@code $(name)}: the name runs to the first {@code )}. */
    private static List<Segment> parse(
            String template,
            String where,
            int lengthWidth,
            Parameters parameters,
            List<String> names) {
        List<Segment> segments = new ArrayList<>();
        int at = 0;
        while (true) {
            int open = template.indexOf("$(", at);
            if (open < 0) {
                addLiteral(segments, template.substring(at), names);
                return segments;
            }
            int close = template.indexOf(')', open + 2);
            if (close < 0) {
                throw new IllegalArgumentException(
                        where
                                + " has '$(' without a closing ')': "
                                + shown(template.substring(open)));
            }
            addLiteral(segments, template.substring(at, open), names);
            String name = template.substring(open + 2, close);
            if (name.equals(RequestSpec.LENGTH)) {
                segments.add(new Segment.LengthField(lengthWidth));
            } else {
                segments.add(parameters.occurrence(name, where));
            }
            names.add(name);
            at = close + 1;
        }
    }

    /** Template text for a message: short, and readable in any encoding. */
    private static String shown(String text) {
        int max = 40;
        return ByteText.display(text.length() > max ? text.substring(0, max) + "..." : text);
    }

    private static void addLiteral(List<Segment> segments, String text, List<String> names) {
        if (!text.isEmpty()) {
            segments.add(new Segment.Literal(ByteText.encode(text)));
            names.add(null);
        }
    }

    private static int countLengthFields(List<Segment> segments) {
        int count = 0;
        for (Segment segment : segments) {
            if (segment instanceof Segment.LengthField) {
                count++;
            }
        }
        return count;
    }

    private static Kind kindOf(List<Segment> segments) {
        Kind kind = Kind.STATIC;
        for (Segment segment : segments) {
            switch (segment.dependence()) {
                case REQUEST -> {
                    return Kind.PER_REQUEST;
                }
                case CONNECTION -> kind = Kind.PER_CONNECTION;
                case NONE -> {}
            }
        }
        return kind;
    }

    /**
     * The declared parameters and, for those the templates use, their shared state: one state per
     * parameter, however many times it occurs.
     */
    private static final class Parameters {
        private final Map<String, ParameterSpec> declared = new HashMap<>();
        private final Map<String, Object> states = new HashMap<>();
        private final List<String> variables;
        private final RunnerSlice slice;
        private final Clock clock;
        private final Function<String, String> environment;

        Parameters(
                List<ParameterSpec> specs,
                List<String> variables,
                RunnerSlice slice,
                Clock clock,
                Function<String, String> environment) {
            this.variables = List.copyOf(variables);
            this.slice = slice;
            this.clock = clock;
            this.environment = environment;
            for (ParameterSpec spec : specs) {
                if (declared.putIfAbsent(spec.name(), spec) != null) {
                    throw new IllegalArgumentException(
                            "parameter " + spec.name() + " is declared more than once");
                }
            }
        }

        Segment occurrence(String name, String where) {
            ParameterSpec spec = declared.get(name);
            if (spec == null && variables.contains(name)) {
                return new Segment.VariableUse(variables.indexOf(name), name);
            }
            if (spec == null) {
                throw new IllegalArgumentException(
                        where
                                + " uses $("
                                + shown(name)
                                + "), which is not declared in [parameters]");
            }
            Object state = states.computeIfAbsent(name, n -> createState(spec));
            if (spec instanceof ParameterSpec.Counter counter) {
                return new Segment.CounterUse((CounterSequence) state, counter.format());
            } else if (spec instanceof ParameterSpec.File) {
                return new Segment.FileUse((LineCycle) state);
            } else if (spec instanceof ParameterSpec.DateTime) {
                return new Segment.DateTimeUse((DateTimeCache) state);
            } else if (spec instanceof ParameterSpec.Env) {
                return new Segment.Literal((byte[]) state);
            } else {
                IntFormat format = ((ParameterSpec.ConnectId) spec).format();
                return new Segment.ConnectIdUse(format);
            }
        }

        private Object createState(ParameterSpec spec) {
            if (spec instanceof ParameterSpec.Counter counter) {
                return new CounterSequence(counter, slice);
            } else if (spec instanceof ParameterSpec.File file) {
                return LineCycle.of(file, slice);
            } else if (spec instanceof ParameterSpec.DateTime dateTime) {
                return new DateTimeCache(dateTime.format(), clock);
            } else if (spec instanceof ParameterSpec.Env env) {
                String value = environment.apply(env.variable());
                if (value == null) {
                    throw new IllegalArgumentException(
                            "line "
                                    + env.line()
                                    + ": "
                                    + env.name()
                                    + ": the environment variable "
                                    + env.variable()
                                    + " is not set");
                }
                return ByteText.encode(value);
            } else {
                return spec; // CONNECTID has no shared state: the engine passes the id
            }
        }
    }
}
