package io.tcpload.runner.dryrun;

import io.tcpload.runner.correlate.ResponseValues;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.ParameterSpec;
import io.tcpload.runner.profile.Profile;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * Which bytes of a dry run's exchange are not shown: every occurrence, in a request or a response
 * (an echo), of a value of an ENV parameter ({@code --test-mask-env}), of a line of a data file
 * named by {@code --test-mask-file}, or of a value a response handed the connection ({@code
 * --test-mask-extracted}: a session key), from the response that carries it on. Found by value, so
 * a value echoed back is masked as well as the one sent; a short value may mask more than itself,
 * never less. Pure, immutable.
 */
public final class DryRunMask {
    public static final DryRunMask NONE = new DryRunMask(List.of(), List.of(), false);

    private final List<byte[]> values;
    private final List<String> what;

    private final boolean extracted;

    private DryRunMask(List<byte[]> values, List<String> what, boolean extracted) {
        this.values = values;
        this.what = what;
        this.extracted = extracted;
    }

    /**
     * The values of {@code profile}'s ENV parameters (when {@code env}) as {@code environment}
     * gives them, and the lines of its FILE parameters whose file is named (its last path element)
     * in {@code files}; with {@code extracted}, the values its responses hand the connection, each
     * once {@link #withExtracted} is told it.
     */
    public static DryRunMask of(
            Profile profile,
            Function<String, String> environment,
            boolean env,
            Collection<String> files,
            boolean extracted) {
        List<byte[]> values = new ArrayList<>();
        List<String> what = new ArrayList<>();
        for (ParameterSpec parameter : profile.parameters()) {
            if (env && parameter instanceof ParameterSpec.Env variable) {
                String value = environment.apply(variable.variable());
                if (value != null && !value.isEmpty()) {
                    values.add(ByteText.encode(value));
                }
                what.add(variable.name() + " (ENV)");
            } else if (parameter instanceof ParameterSpec.File file
                    && files.contains(fileName(file.source()))) {
                byte[] content = file.content().toByteArray();
                int start = 0;
                for (int i = 0; i <= content.length; i++) {
                    if (i == content.length || content[i] == '\n') {
                        int end = i > start && content[i - 1] == '\r' ? i - 1 : i;
                        if (end > start) {
                            byte[] line = new byte[end - start];
                            System.arraycopy(content, start, line, 0, line.length);
                            values.add(line);
                        }
                        start = i + 1;
                    }
                }
                what.add(file.name() + " (FILE " + fileName(file.source()) + ")");
            }
        }
        if (extracted) {
            for (String variable : profile.variables()) {
                what.add(variable + " (extracted)");
            }
        }
        return new DryRunMask(List.copyOf(values), List.copyOf(what), extracted);
    }

    /**
     * This mask and, when it masks values carried from responses, {@code value}, extracted from a
     * response: masked from that response on, and in every later request that sends it.
     */
    public DryRunMask withExtracted(byte[] value) {
        if (!extracted || value.length == 0) {
            return this;
        }
        List<byte[]> more = new ArrayList<>(values);
        more.add(value.clone());
        return new DryRunMask(List.copyOf(more), what, true);
    }

    /**
     * {@code value} as text to print, in double quotes, its masked bytes as {@code *} (a value
     * extracted or echoed, which may be or hold one that is masked).
     */
    public String shown(byte[] value) {
        boolean[] masked = over(value);
        byte[] text = value.clone();
        for (int i = 0; i < text.length; i++) {
            if (masked[i]) {
                text[i] = '*';
            }
        }
        return ResponseValues.shown(text);
    }

    /** The parameters masked, for the dry run's header; empty when none. */
    public List<String> what() {
        return what;
    }

    /** Which of {@code data}'s bytes are masked. */
    public boolean[] over(byte[] data) {
        boolean[] masked = new boolean[data.length];
        for (byte[] value : values) {
            for (int at = indexOf(data, value, 0); at >= 0; at = indexOf(data, value, at + 1)) {
                for (int i = at; i < at + value.length; i++) {
                    masked[i] = true;
                }
            }
        }
        return masked;
    }

    private static int indexOf(byte[] data, byte[] value, int from) {
        outer:
        for (int at = from; at + value.length <= data.length; at++) {
            for (int i = 0; i < value.length; i++) {
                if (data[at + i] != value[i]) {
                    continue outer;
                }
            }
            return at;
        }
        return -1;
    }

    private static String fileName(String path) {
        try {
            Path name = Path.of(path).getFileName();
            return name == null ? path : name.toString();
        } catch (InvalidPathException e) {
            return path;
        }
    }
}
