package io.tcpload.runner.pem;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM text as certificate and key files hold it: {@code -----BEGIN LABEL-----}, optional headers,
 * Base64, {@code -----END LABEL-----}, any number of times with any text between (openssl writes
 * {@code subject=} lines into bundles). Pure and stateless.
 */
public final class Pem {
    private static final Pattern BLOCK =
            Pattern.compile(
                    "-----BEGIN ([A-Z0-9 ]+)-----\\r?\\n(.*?)-----END \\1-----", Pattern.DOTALL);

    /** The private-key labels, with the form each one is. */
    private static final List<String> KEY_LABELS =
            List.of("PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY");

    private Pem() {}

    /**
     * One block.
     *
     * @param label what the BEGIN line names ({@code CERTIFICATE}, {@code PRIVATE KEY})
     * @param headers the RFC 1421 headers (legacy encrypted keys have {@code Proc-Type} and {@code
     *     DEK-Info}), as written
     * @param der the decoded bytes
     */
    public record Block(String label, List<String> headers, byte[] der) {
        public Block {
            headers = List.copyOf(headers);
        }
    }

    /** How a private key is written. */
    public enum KeyForm {
        /** {@code PRIVATE KEY}: PKCS#8. */
        PKCS8,
        /** {@code ENCRYPTED PRIVATE KEY}: encrypted PKCS#8. */
        PKCS8_ENCRYPTED,
        /** {@code RSA PRIVATE KEY}: PKCS#1, what cert-manager writes by default. */
        PKCS1,
        /** {@code EC PRIVATE KEY}: SEC1. */
        SEC1;

        /** Whether a password is needed to read it. */
        public boolean encrypted(Block block) {
            return this == PKCS8_ENCRYPTED
                    || block.headers().stream()
                            .anyMatch(h -> h.replace(" ", "").equals("Proc-Type:4,ENCRYPTED"));
        }
    }

    /**
     * The blocks of {@code content}, in order.
     *
     * @throws IllegalArgumentException when a block's Base64 is damaged (the message names it)
     */
    public static List<Block> blocks(byte[] content) {
        String text = new String(content, StandardCharsets.ISO_8859_1);
        Matcher matcher = BLOCK.matcher(text);
        List<Block> blocks = new ArrayList<>();
        while (matcher.find()) {
            String label = matcher.group(1);
            List<String> headers = new ArrayList<>();
            StringBuilder base64 = new StringBuilder();
            for (String line : matcher.group(2).split("\\r?\\n")) {
                if (line.contains(":")) {
                    headers.add(line.strip());
                } else {
                    base64.append(line.strip());
                }
            }
            try {
                blocks.add(
                        new Block(label, headers, Base64.getDecoder().decode(base64.toString())));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "its " + label + " block " + (blocks.size() + 1) + " is not valid Base64");
            }
        }
        return blocks;
    }

    /**
     * The X.509 certificates of {@code content}, in order; other blocks are skipped.
     *
     * @throws IllegalArgumentException with a phrase saying what is wrong: no certificate, or one
     *     that does not parse
     */
    public static List<X509Certificate> certificates(byte[] content) {
        CertificateFactory factory;
        try {
            factory = CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("the JDK has no X.509 certificate factory", e);
        }
        List<X509Certificate> certificates = new ArrayList<>();
        for (Block block : blocks(content)) {
            if (!block.label().equals("CERTIFICATE")) {
                continue;
            }
            try {
                certificates.add(
                        (X509Certificate)
                                factory.generateCertificate(new ByteArrayInputStream(block.der())));
            } catch (CertificateException e) {
                throw new IllegalArgumentException(
                        "its certificate " + (certificates.size() + 1) + " does not parse");
            }
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException(
                    "holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        return certificates;
    }

    /**
     * The private key block of {@code content}: the first block that is one.
     *
     * @throws IllegalArgumentException when there is none, or more than one
     */
    public static Block keyBlock(byte[] content) {
        List<Block> keys =
                blocks(content).stream().filter(b -> KEY_LABELS.contains(b.label())).toList();
        if (keys.isEmpty()) {
            throw new IllegalArgumentException(
                    "holds no PEM private key (PRIVATE KEY, ENCRYPTED PRIVATE KEY, RSA PRIVATE KEY"
                            + " or EC PRIVATE KEY)");
        }
        if (keys.size() > 1) {
            throw new IllegalArgumentException(
                    "holds " + keys.size() + " private keys; give the client certificate's one");
        }
        return keys.get(0);
    }

    /** The form of a block that {@link #keyBlock} returned. */
    public static KeyForm keyForm(Block block) {
        return switch (block.label()) {
            case "PRIVATE KEY" -> KeyForm.PKCS8;
            case "ENCRYPTED PRIVATE KEY" -> KeyForm.PKCS8_ENCRYPTED;
            case "RSA PRIVATE KEY" -> KeyForm.PKCS1;
            case "EC PRIVATE KEY" -> KeyForm.SEC1;
            default -> throw new IllegalArgumentException("not a private key: " + block.label());
        };
    }

    /** The PEM text of certificates, as a trust bundle or a chain file holds them. */
    public static String encodeCertificates(List<X509Certificate> certificates) {
        StringBuilder pem = new StringBuilder();
        for (X509Certificate certificate : certificates) {
            try {
                pem.append(encode("CERTIFICATE", certificate.getEncoded()));
            } catch (CertificateException e) {
                throw new IllegalStateException("a certificate cannot be encoded", e);
            }
        }
        return pem.toString();
    }

    /** One PEM block, with 64-character lines. */
    public static String encode(String label, byte[] der) {
        String base64 = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
        return "-----BEGIN " + label + "-----\n" + base64 + "\n-----END " + label + "-----\n";
    }

    /** The first block labelled {@code label}, if any. */
    public static Optional<Block> first(byte[] content, String label) {
        return blocks(content).stream().filter(b -> b.label().equals(label)).findFirst();
    }
}
