package io.tcpload.operator.children;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The operator's key for the runners' control tokens: each test's token is an HMAC of the test's
 * UID under it, so that the operator derives a token whenever it needs one and never reads one back
 * from the API (it may create the runners' Secret, never read it). Every replica of the operator
 * holds the same key (the chart's Secret), so that a new leader talks to the runners of the old.
 * Pure and immutable; the key never shows in text.
 */
public final class ControlKey {
    /** Shorter keys are refused: an HMAC is only as strong as its key. */
    static final int MIN_BYTES = 32;

    private static final String HMAC = "HmacSHA256";

    private final byte[] key;

    private ControlKey(byte[] key) {
        this.key = key.clone();
    }

    /**
     * The key {@code bytes}.
     *
     * @throws IllegalArgumentException when shorter than {@value #MIN_BYTES} bytes
     */
    public static ControlKey of(byte[] bytes) {
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException(
                    "the control key must be at least "
                            + MIN_BYTES
                            + " bytes (got "
                            + bytes.length
                            + ")");
        }
        return new ControlKey(bytes);
    }

    /**
     * The key in {@code file} (a mounted Secret key), surrounding white space left out.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read or is too short
     */
    public static ControlKey fromFile(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            return of(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot read the control key " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** A random key, for an operator that is its own only replica and never restarts (tests). */
    public static ControlKey random() {
        byte[] bytes = new byte[MIN_BYTES];
        new SecureRandom().nextBytes(bytes);
        return new ControlKey(bytes);
    }

    /** The control token of the test whose UID is {@code uid}: URL-safe base64 of the HMAC. */
    public String tokenFor(String uid) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            byte[] digest =
                    mac.doFinal(("tcpload-control/" + uid).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has " + HMAC, e);
        }
    }

    @Override
    public String toString() {
        return "ControlKey[redacted]";
    }
}
