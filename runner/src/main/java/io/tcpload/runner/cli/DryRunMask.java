package io.tcpload.runner.cli;

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
 * (an echo), of a value of an ENV parameter ({@code --test-mask-env}) or of a line of a data file
 * named by {@code --test-mask-file}. Found by value, so a value echoed back is masked as well as
 * the one sent; a short value may mask more than itself, never less. Pure, immutable.
 */
final class DryRunMask {
    static final DryRunMask NONE = new DryRunMask(List.of(), List.of());

    private final List<byte[]> values;
    private final List<String> what;

    private DryRunMask(List<byte[]> values, List<String> what) {
        this.values = values;
        this.what = what;
    }

    /**
     * The values of {@code profile}'s ENV parameters (when {@code env}) as {@code environment}
     * gives them, and the lines of its FILE parameters whose file is named (its last path element)
     * in {@code files}.
     */
    static DryRunMask of(
            Profile profile,
            Function<String, String> environment,
            boolean env,
            Collection<String> files) {
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
        return new DryRunMask(List.copyOf(values), List.copyOf(what));
    }

    /** The parameters masked, for the dry run's header; empty when none. */
    List<String> what() {
        return what;
    }

    /** Which of {@code data}'s bytes are masked. */
    boolean[] over(byte[] data) {
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
