package io.tcpload.runner.tls;

import io.tcpload.runner.pem.Pem;
import io.tcpload.runner.profile.TlsSpec.PemFile;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMDecryptorProviderBuilder;
import org.bouncycastle.operator.InputDecryptorProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;

/**
 * Certificates and private keys from PEM: PKCS#8 keys, plain and encrypted, PKCS#1 ({@code RSA
 * PRIVATE KEY}, what cert-manager writes by default), SEC1 ({@code EC PRIVATE KEY}) and legacy
 * OpenSSL-encrypted ones ({@code Proc-Type: 4,ENCRYPTED}). Pure apart from reading the password's
 * environment variable through the function given.
 */
public final class KeyMaterial {
    private KeyMaterial() {}

    /** The certificates of a PEM file. */
    public static List<X509Certificate> certificates(PemFile file) throws TlsSetupException {
        try {
            return Pem.certificates(file.content().toByteArray());
        } catch (IllegalArgumentException e) {
            throw new TlsSetupException(file.source() + " " + e.getMessage());
        }
    }

    /**
     * The private key of a PEM file, decrypted with the password in {@code passwordEnv} when it is
     * encrypted.
     *
     * @param environment the process's variables
     * @throws TlsSetupException naming the file or the variable: no key, no password, a wrong one
     */
    public static PrivateKey privateKey(
            PemFile file, Optional<String> passwordEnv, Function<String, String> environment)
            throws TlsSetupException {
        Pem.Block block;
        try {
            block = Pem.keyBlock(file.content().toByteArray());
        } catch (IllegalArgumentException e) {
            throw new TlsSetupException(file.source() + " " + e.getMessage());
        }
        boolean encrypted = Pem.keyForm(block).encrypted(block);
        char[] password = encrypted ? password(file, passwordEnv, environment) : null;
        Object parsed;
        try (PEMParser parser = new PEMParser(new StringReader(pemText(block)))) {
            parsed = parser.readObject();
        } catch (IOException | RuntimeException e) {
            throw new TlsSetupException(
                    file.source() + ": its " + block.label() + " does not parse", e);
        }
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try {
            if (parsed instanceof PrivateKeyInfo info) {
                return converter.getPrivateKey(info);
            }
            if (parsed instanceof PEMKeyPair pair) {
                return converter.getKeyPair(pair).getPrivate();
            }
            if (parsed instanceof PKCS8EncryptedPrivateKeyInfo info) {
                InputDecryptorProvider decryptor =
                        new JceOpenSSLPKCS8DecryptorProviderBuilder()
                                .setProvider(new BouncyCastleProvider())
                                .build(password);
                return converter.getPrivateKey(info.decryptPrivateKeyInfo(decryptor));
            }
            if (parsed instanceof PEMEncryptedKeyPair pair) {
                return converter
                        .getKeyPair(
                                pair.decryptKeyPair(
                                        new JcePEMDecryptorProviderBuilder()
                                                .setProvider(new BouncyCastleProvider())
                                                .build(password)))
                        .getPrivate();
            }
        } catch (PKCSException | OperatorCreationException | IOException | RuntimeException e) {
            if (encrypted) {
                throw new TlsSetupException(
                        file.source()
                                + " cannot be decrypted with the password in $"
                                + passwordEnv.orElse("")
                                + " (wrong password, or a cipher this runner does not know)",
                        e);
            }
            throw new TlsSetupException(
                    file.source() + ": its " + block.label() + " is not a usable key", e);
        }
        throw new TlsSetupException(
                file.source() + ": its " + block.label() + " is not a private key");
    }

    /**
     * Refuses a key that is not the key of the chain's first certificate, which would otherwise
     * fail every handshake: a signature the key makes must verify with the certificate's public
     * key. Keys of a kind not checked here (none in practice) are let through.
     *
     * @throws TlsSetupException naming both files
     */
    public static void checkPair(
            PemFile certificateFile, List<X509Certificate> chain, PemFile keyFile, PrivateKey key)
            throws TlsSetupException {
        String algorithm =
                switch (key.getAlgorithm()) {
                    case "RSA" -> "SHA256withRSA";
                    case "EC", "ECDSA" -> "SHA256withECDSA";
                    case "Ed25519", "EdDSA" -> "Ed25519";
                    default -> null;
                };
        if (algorithm == null || chain.isEmpty()) {
            return;
        }
        byte[] probe = "tcpload key check".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(chain.get(0).getPublicKey());
            verifier.update(probe);
            if (verifier.verify(signature)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // A key of another kind than the certificate's: not its key either.
        }
        throw new TlsSetupException(
                keyFile.source()
                        + " is not the private key of the certificate in "
                        + certificateFile.source());
    }

    private static char[] password(
            PemFile file, Optional<String> passwordEnv, Function<String, String> environment)
            throws TlsSetupException {
        if (passwordEnv.isEmpty()) {
            throw new TlsSetupException(
                    file.source()
                            + " is encrypted: name the variable holding its password with"
                            + " tls_key_password_env or --tls-key-password-env");
        }
        String value = environment.apply(passwordEnv.get());
        if (value == null) {
            throw new TlsSetupException(
                    file.source()
                            + " is encrypted and the environment variable "
                            + passwordEnv.get()
                            + " that should hold its password is not set");
        }
        return value.toCharArray();
    }

    /** The block as PEM again: BouncyCastle's parser reads the headers of legacy keys itself. */
    private static String pemText(Pem.Block block) {
        String encoded = Pem.encode(block.label(), block.der());
        if (block.headers().isEmpty()) {
            return encoded;
        }
        int bodyStart = encoded.indexOf('\n') + 1;
        return encoded.substring(0, bodyStart)
                + String.join("\n", block.headers())
                + "\n\n"
                + encoded.substring(bodyStart);
    }
}
