package io.tcpload.runner.tls;

import io.netty.util.NetUtil;
import io.tcpload.runner.pem.Pem;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate made at start for the demo target, so that a TLS profile runs against it on a fresh
 * machine with nothing generated beforehand: an EC P-256 key (quick to make) and a self-signed
 * certificate naming every host the client may check, valid from an hour ago for a day. Made in
 * Java; no tool is run.
 *
 * @param certificate the self-signed certificate, which the client trusts as its own CA
 * @param key its private key
 */
public record SelfSigned(X509Certificate certificate, PrivateKey key) {
    private static final Duration VALIDITY = Duration.ofDays(1);

    /**
     * A certificate for {@code names}: each one an IP literal (an IP entry) or a DNS name.
     *
     * @throws IllegalStateException when the JDK cannot make EC keys (every JDK can)
     */
    public static SelfSigned forNames(List<String> names) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair pair = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=tcpload demo target");
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder =
                    new JcaX509v3CertificateBuilder(
                            subject,
                            new BigInteger(64, new SecureRandom()),
                            Date.from(now.minus(Duration.ofHours(1))),
                            Date.from(now.plus(VALIDITY)),
                            subject,
                            pair.getPublic());
            List<GeneralName> entries = new ArrayList<>();
            for (String name : names) {
                boolean ip = NetUtil.isValidIpV4Address(name) || NetUtil.isValidIpV6Address(name);
                entries.add(
                        new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, name));
            }
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(entries.toArray(GeneralName[]::new)));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyCertSign));
            builder.addExtension(
                    Extension.extendedKeyUsage,
                    false,
                    new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            X509Certificate certificate =
                    new JcaX509CertificateConverter()
                            .getCertificate(
                                    builder.build(
                                            new JcaContentSignerBuilder("SHA256withECDSA")
                                                    .build(pair.getPrivate())));
            return new SelfSigned(certificate, pair.getPrivate());
        } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
            throw new IllegalStateException("cannot make the demo target's certificate", e);
        }
    }

    /** The certificate as PEM, for a client's trust bundle. */
    public String certificatePem() {
        return Pem.encodeCertificates(List.of(certificate));
    }

    /** The key as PKCS#8 PEM. */
    public String keyPem() {
        return Pem.encode("PRIVATE KEY", key.getEncoded());
    }
}
