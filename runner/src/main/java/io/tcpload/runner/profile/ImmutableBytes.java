package io.tcpload.runner.profile;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.Objects;

/**
 * Bytes that cannot change, such as the content of a FILE parameter's data file: a profile holds
 * them for the whole run and every event loop reads them at once, so they are never copied out for
 * writing and never handed out to be changed.
 */
public final class ImmutableBytes {
    private static final ImmutableBytes EMPTY = new ImmutableBytes(new byte[0]);

    private final byte[] bytes;

    private ImmutableBytes(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A copy of {@code bytes}; later changes to the array do not show. */
    public static ImmutableBytes copyOf(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new ImmutableBytes(bytes.clone());
    }

    /** Takes an array nobody else holds, without copying it. */
    static ImmutableBytes own(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new ImmutableBytes(bytes);
    }

    public int length() {
        return bytes.length;
    }

    public boolean isEmpty() {
        return bytes.length == 0;
    }

    public byte byteAt(int index) {
        return bytes[index];
    }

    /** Appends {@code length} bytes from {@code from} to {@code out}; safe from any thread. */
    public void writeTo(ByteBuf out, int from, int length) {
        Objects.checkFromIndexSize(from, length, bytes.length);
        out.writeBytes(bytes, from, length);
    }

    /** A copy of the bytes. */
    public byte[] toByteArray() {
        return bytes.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ImmutableBytes that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** The size only: the content may be large and in any encoding. */
    @Override
    public String toString() {
        return bytes.length + " bytes";
    }
}
