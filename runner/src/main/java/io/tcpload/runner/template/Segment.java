package io.tcpload.runner.template;

import io.netty.buffer.ByteBuf;
import io.tcpload.runner.format.IntFormat;

/**
 * One compiled piece of a request template: literal bytes, the length field, or one occurrence of a
 * parameter. Building a request is two passes over the segments: {@link #draw} takes each
 * occurrence's value (in template order, so shared sequences advance head first, left to right)
 * into a per-thread {@link Draw} and reports its byte length; then, with the length field's value
 * known, {@link #write} puts the bytes into the output. Neither pass allocates.
 */
abstract sealed class Segment {

    /** What a segment needs to be rebuilt for. */
    enum Dependence {
        NONE,
        CONNECTION,
        REQUEST
    }

    /** Takes this occurrence's value into {@code draw} at {@code slot}; returns its byte count. */
    abstract int draw(Draw draw, int slot, long connectionId);

    /** Writes the value drawn at {@code slot}. */
    abstract void write(ByteBuf out, Draw draw, int slot);

    /** An upper bound of {@link #draw}'s result, for buffer size hints. */
    abstract int maxLength();

    Dependence dependence() {
        return Dependence.REQUEST;
    }

    /** Per-thread scratch holding the values drawn for one request being built. */
    static final class Draw {
        final long[] numbers;
        final byte[][] arrays;
        long lengthValue;
        int lengthDigits;

        /** The connection's variables while one of its requests is built; else null. */
        io.tcpload.runner.correlate.Variables variables;

        Draw(int slots) {
            this.numbers = new long[slots];
            this.arrays = new byte[slots][];
        }
    }

    static final class Literal extends Segment {
        final byte[] bytes;

        Literal(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        int draw(Draw draw, int slot, long connectionId) {
            return bytes.length;
        }

        @Override
        void write(ByteBuf out, Draw draw, int slot) {
            out.writeBytes(bytes);
        }

        @Override
        int maxLength() {
            return bytes.length;
        }

        @Override
        Dependence dependence() {
            return Dependence.NONE;
        }
    }

    /** {@code $(length)}: its digits are counted by the template, not here, so it draws 0. */
    static final class LengthField extends Segment {
        private final int width;

        LengthField(int width) {
            this.width = width;
        }

        @Override
        int draw(Draw draw, int slot, long connectionId) {
            return 0;
        }

        @Override
        void write(ByteBuf out, Draw draw, int slot) {
            int digits = draw.lengthDigits;
            out.ensureWritable(digits);
            int start = out.writerIndex();
            long rest = draw.lengthValue;
            for (int at = start + digits - 1; at >= start; at--) {
                out.setByte(at, (int) ('0' + rest % 10));
                rest /= 10;
            }
            out.writerIndex(start + digits);
        }

        @Override
        int maxLength() {
            return Math.max(width, 19);
        }

        @Override
        Dependence dependence() {
            return Dependence.NONE;
        }
    }

    static final class CounterUse extends Segment {
        private final CounterSequence sequence;
        private final IntFormat format;

        CounterUse(CounterSequence sequence, IntFormat format) {
            this.sequence = sequence;
            this.format = format;
        }

        @Override
        int draw(Draw draw, int slot, long connectionId) {
            long value = sequence.next();
            draw.numbers[slot] = value;
            return format.length(value);
        }

        @Override
        void write(ByteBuf out, Draw draw, int slot) {
            format.write(draw.numbers[slot], out);
        }

        @Override
        int maxLength() {
            return format.maxLength();
        }
    }

    static final class ConnectIdUse extends Segment {
        private final IntFormat format;

        ConnectIdUse(IntFormat format) {
            this.format = format;
        }

        @Override
        int draw(Draw draw, int slot, long connectionId) {
            draw.numbers[slot] = connectionId;
            return format.length(connectionId);
        }

        @Override
        void write(ByteBuf out, Draw draw, int slot) {
            format.write(draw.numbers[slot], out);
        }

        @Override
        int maxLength() {
            return format.maxLength();
        }

        @Override
        Dependence dependence() {
            return Dependence.CONNECTION;
        }
    }

    static final class FileUse extends Segment {
        private final LineCycle lines;

        FileUse(LineCycle lines) {
            this.lines = lines;
        }

        @Override
        int draw(Draw draw, int slot, long connectionId) {
            int line = lines.next();
            draw.numbers[slot] = line;
            return lines.length(line);
        }

        @Override
        void write(ByteBuf out, Draw draw, int slot) {
            lines.write((int) draw.numbers[slot], out);
        }

        @Override
        int maxLength() {
            return lines.maxLineLength();
        }
    }

    /** A variable extracted from an earlier response on the connection ({@code rsp_extract}). */
    static final class VariableUse extends Segment {
        private final int index;
        private final String name;

        VariableUse(int index, String name) {
            this.index = index;
            this.name = name;
        }

        @Override
        int draw(Draw draw, int slot, long connectionId) {
            byte[] value = draw.variables == null ? null : draw.variables.get(index);
            if (value == null) {
                throw new MissingValueException(name);
            }
            draw.arrays[slot] = value;
            return value.length;
        }

        @Override
        void write(ByteBuf out, Draw draw, int slot) {
            out.writeBytes(draw.arrays[slot]);
        }

        @Override
        int maxLength() {
            return io.tcpload.runner.profile.ValueRule.MAX_VALUE_BYTES;
        }
    }

    static final class DateTimeUse extends Segment {
        private final DateTimeCache cache;

        DateTimeUse(DateTimeCache cache) {
            this.cache = cache;
        }

        @Override
        int draw(Draw draw, int slot, long connectionId) {
            byte[] bytes = cache.now();
            draw.arrays[slot] = bytes;
            return bytes.length;
        }

        @Override
        void write(ByteBuf out, Draw draw, int slot) {
            out.writeBytes(draw.arrays[slot]);
        }

        @Override
        int maxLength() {
            // Names of months and days vary in length; this is only a size hint.
            return cache.now().length * 2 + 16;
        }
    }
}
