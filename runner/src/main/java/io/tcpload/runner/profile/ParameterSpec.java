package io.tcpload.runner.profile;

import io.tcpload.runner.format.IntFormat;
import io.tcpload.runner.format.Strftime;
import java.util.Objects;

/** One {@code [parameters]} entry: {@code NAME = TYPE, ARGS}. */
public sealed interface ParameterSpec {

    /** The name used as {@code $(NAME)} in templates. */
    String name();

    /** The INI line it was declared on (0 when not from a file). */
    int line();

    /**
     * {@code COUNTER, start, end, step, format}: one value shared by the whole runner, advanced by
     * {@code step} on every use (every occurrence in a request is a use). The first value is {@code
     * max(start, step)} (wrktcp's first value, kept for wire compatibility; {@code start} when that
     * is past {@code end}), and after passing {@code end} it starts again at exactly {@code start}
     * (wrktcp's wrap lands at start plus the overshoot; we do not): {@code 1,3,1} gives 1, 2, 3, 1,
     * 2, 3; {@code 100,110,4} gives 100, 104, 108, 100.
     *
     * <p>In a distributed run of N runners the cycle {@code start, start+step, ...} (its L values
     * up to {@code end}) is split into N contiguous blocks: runner i (from 0) takes positions
     * {@code floor(i*L/N)} to {@code floor((i+1)*L/N) - 1} and applies the rule above to its block
     * as if it were the whole counter: {@code start} becomes the block's first value and {@code
     * end} the last number before the next block's first value (the real {@code end} for the last
     * block), so no value is sent by two runners. When L is smaller than N every runner uses the
     * whole cycle.
     */
    record Counter(String name, int line, long start, long end, long step, IntFormat format)
            implements ParameterSpec {
        public Counter {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(format, "format");
            if (end < start) {
                throw new IllegalArgumentException("end < start");
            }
            if (step <= 0) {
                throw new IllegalArgumentException("step <= 0");
            }
        }
    }

    /**
     * {@code FILE, path}: the next line of a data file on every use, shared by the whole runner,
     * back to line 1 after the last. The loader has already read the file, through its {@link
     * DataFileResolver}; the content is not empty.
     *
     * @param source how messages name the data file (its path, or its name)
     * @param content the data file's bytes, as they are: lines are sent in the file's encoding
     */
    record File(String name, int line, String source, ImmutableBytes content)
            implements ParameterSpec {
        public File {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(content, "content");
        }
    }

    /** {@code CONNECTID, format}: the connection's id, {@code thread * 10000 + index + 1}. */
    record ConnectId(String name, int line, IntFormat format) implements ParameterSpec {
        public ConnectId {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(format, "format");
        }
    }

    /**
     * {@code ENV, VARIABLE}: the value of the runner's environment variable, read once when the run
     * starts; so that a credential reaches a request from a Secret (a pod's {@code secretKeyRef}
     * variable) and never sits in the profile.
     */
    record Env(String name, int line, String variable) implements ParameterSpec {
        public Env {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(variable, "variable");
        }
    }

    /** {@code DATETIME, format}: the current time, in the process time zone, as strftime would. */
    record DateTime(String name, int line, Strftime format) implements ParameterSpec {
        public DateTime {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(format, "format");
        }
    }
}
