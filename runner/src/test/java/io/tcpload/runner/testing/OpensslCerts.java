package io.tcpload.runner.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates and keys made by the {@code openssl} command in a test's folder, as an operator
 * would make them: a CA, another CA nobody trusts, a server certificate for 127.0.0.1 and localhost
 * (RSA, its key also in PKCS#1 and encrypted PKCS#8, and EC), an expired one, and a client
 * certificate, with the client key written in each PEM form a runner may be given. Every command is
 * bounded in time.
 */
public final class OpensslCerts {
    /** A DNS name of the server certificate (SNI needs a name with a dot; localhost has none). */
    public static final String SERVER_NAME = "pay.tcpload.test";

    /** The password of the encrypted keys. */
    public static final String KEY_PASSWORD = "s3cret pass";

    private final Path dir;

    private OpensslCerts(Path dir) {
        this.dir = dir;
    }

    /** Whether the openssl command is here; tests that need it are skipped without it. */
    public static boolean installed() {
        try {
            return new ProcessBuilder("openssl", "version").start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Makes every file in {@code dir}. */
    public static OpensslCerts make(Path dir) throws IOException, InterruptedException {
        OpensslCerts certs = new OpensslCerts(dir);
        certs.makeAll();
        return certs;
    }

    private void makeAll() throws IOException, InterruptedException {
        selfSignedCa("ca", "tcpload test CA");
        selfSignedCa("other-ca", "a CA nobody trusts");
        Files.writeString(
                dir.resolve("server.ext"),
                "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:"
                        + SERVER_NAME
                        + "\n"
                        + "extendedKeyUsage=serverAuth\n",
                StandardCharsets.US_ASCII);
        openssl(
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
                "-subj",
                "/CN=localhost");
        openssl(
                "x509",
                "-req",
                "-in",
                "server.csr",
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                "server.ext",
                "-out",
                "server.crt");
        expiredServerCertificate();
        // The server's key in the other forms a demo target may be given, and an EC server.
        openssl(
                "pkcs8",
                "-topk8",
                "-v2",
                "aes-256-cbc",
                "-in",
                "server.key",
                "-out",
                "server-pkcs8-encrypted.key",
                "-passout",
                "pass:" + KEY_PASSWORD);
        openssl("rsa", "-in", "server.key", "-traditional", "-out", "server-pkcs1.key");
        openssl("ecparam", "-genkey", "-name", "prime256v1", "-noout", "-out", "server-ec.key");
        openssl(
                "req",
                "-new",
                "-key",
                "server-ec.key",
                "-out",
                "server-ec.csr",
                "-subj",
                "/CN=localhost");
        openssl(
                "x509",
                "-req",
                "-in",
                "server-ec.csr",
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                "server.ext",
                "-out",
                "server-ec.crt");
        // The client: an RSA key in PKCS#8 (plain and encrypted) and PKCS#1, an EC key in SEC1.
        openssl(
                "genpkey",
                "-algorithm",
                "RSA",
                "-pkeyopt",
                "rsa_keygen_bits:2048",
                "-out",
                "client.key");
        openssl(
                "req",
                "-new",
                "-key",
                "client.key",
                "-out",
                "client.csr",
                "-subj",
                "/CN=tcpload client");
        Files.writeString(
                dir.resolve("client.ext"),
                "extendedKeyUsage=clientAuth\n",
                StandardCharsets.US_ASCII);
        openssl(
                "x509",
                "-req",
                "-in",
                "client.csr",
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                "client.ext",
                "-out",
                "client.crt");
        openssl(
                "pkcs8",
                "-topk8",
                "-v2",
                "aes-256-cbc",
                "-in",
                "client.key",
                "-out",
                "client-pkcs8-encrypted.key",
                "-passout",
                "pass:" + KEY_PASSWORD);
        openssl("rsa", "-in", "client.key", "-traditional", "-out", "client-pkcs1.key");
        openssl("ecparam", "-genkey", "-name", "prime256v1", "-noout", "-out", "client-ec.key");
        openssl(
                "req",
                "-new",
                "-key",
                "client-ec.key",
                "-out",
                "client-ec.csr",
                "-subj",
                "/CN=tcpload EC client");
        openssl(
                "x509",
                "-req",
                "-in",
                "client-ec.csr",
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                "client.ext",
                "-out",
                "client-ec.crt");
    }

    private void selfSignedCa(String name, String commonName)
            throws IOException, InterruptedException {
        openssl(
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                name + ".key",
                "-out",
                name + ".crt",
                "-days",
                "2",
                "-subj",
                "/CN=" + commonName);
    }

    /** A certificate that expired in 2020, signed by the CA, through {@code openssl ca}. */
    private void expiredServerCertificate() throws IOException, InterruptedException {
        Path db = Files.createDirectories(dir.resolve("ca-db"));
        Files.writeString(db.resolve("index.txt"), "");
        Files.writeString(db.resolve("serial"), "1000\n");
        Files.writeString(
                dir.resolve("ca.cnf"),
                String.join(
                        "\n",
                        "[ca]",
                        "default_ca = test",
                        "[test]",
                        "dir = " + db,
                        "database = $dir/index.txt",
                        "serial = $dir/serial",
                        "new_certs_dir = $dir",
                        "default_md = sha256",
                        "policy = anything",
                        "copy_extensions = none",
                        "x509_extensions = server",
                        "[anything]",
                        "commonName = supplied",
                        "[server]",
                        "subjectAltName = IP:127.0.0.1,DNS:localhost",
                        "extendedKeyUsage = serverAuth",
                        ""),
                StandardCharsets.US_ASCII);
        openssl(
                "ca",
                "-batch",
                "-config",
                "ca.cnf",
                "-cert",
                "ca.crt",
                "-keyfile",
                "ca.key",
                "-in",
                "server.csr",
                "-startdate",
                "20200101000000Z",
                "-enddate",
                "20200102000000Z",
                "-out",
                "expired.crt");
    }

    /** A file made here. */
    public Path file(String name) {
        return dir.resolve(name);
    }

    /** Runs {@code openssl ARGS} in the folder and waits for it. */
    private void openssl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(args));
        Path log = dir.resolve("openssl.log");
        Process process =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException("openssl " + String.join(" ", args) + " did not finish");
        }
        if (process.exitValue() != 0) {
            throw new IOException(
                    "openssl " + String.join(" ", args) + " failed: " + Files.readString(log));
        }
    }
}
