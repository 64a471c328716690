package io.tcpload.runner.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * The secret that the control paths ({@code /start}, {@code /result}, {@code /finish}) require, as
 * {@code Authorization: Bearer TOKEN}. Pure and immutable.
 *
 * <p>The comparison takes the same time however much of a guess is right: both sides are hashed
 * first, so that even their lengths differ in nothing a clock can see, and the hashes are compared
 * by {@link MessageDigest#isEqual}, which looks at every byte.
 */
public final class ControlToken {
    private final byte[] digest;

    private ControlToken(String token) {
        this.digest = sha256(token);
    }

    /** The token in {@code value}; empty when there is none (blank or unset: a laptop run). */
    public static Optional<ControlToken> of(String value) {
        return value == null || value.isBlank()
                ? Optional.empty()
                : Optional.of(new ControlToken(value.strip()));
    }

    /** Whether {@code authorization} (the header's value, null when absent) carries this token. */
    public boolean admits(String authorization) {
        boolean bearer =
                authorization != null
                        && authorization.regionMatches(
                                true, 0, RunnerProtocol.BEARER, 0, RunnerProtocol.BEARER.length());
        // A missing header is hashed and compared too, and takes as long as a wrong token.
        String offered =
                bearer ? authorization.substring(RunnerProtocol.BEARER.length()).strip() : "";
        boolean same = MessageDigest.isEqual(digest, sha256(offered));
        return bearer && same;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        // Never the secret, in a log or a message.
        return "ControlToken[redacted]";
    }
}
