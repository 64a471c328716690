package io.tcpload.runner.session;

import io.tcpload.runner.contract.RunnerInvocation;
import io.tcpload.runner.files.BoundedRead;
import io.tcpload.runner.files.UnreadableFileException;
import io.tcpload.runner.pem.Pem;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.TlsSpec;
import io.tcpload.runner.profile.TlsSpec.PemFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The files of {@code --tls-ca}, {@code --tls-cert} and {@code --tls-key}, read (relative to the
 * working folder, with the same cap as a profile's) and put in place of the profile's, so that a
 * pod can be given the paths of mounted Secrets whatever its profile says.
 */
final class TlsFlagFiles {
    /** As a profile's TLS files: far above any real bundle. */
    static final long MAX_PEM_BYTES = 1024 * 1024;

    private TlsFlagFiles() {}

    /**
     * @throws PlanException naming the flag: a file missing, too large, or without what it must
     *     hold
     */
    static Profile apply(Profile profile, RunnerInvocation.Tls flags) throws PlanException {
        if (profile.tls().isEmpty()) {
            return profile;
        }
        TlsSpec tls = profile.tls().get();
        List<String> problems = new ArrayList<>();
        Optional<PemFile> ca = read("--tls-ca", "CA bundle", flags.ca(), problems);
        Optional<PemFile> cert = read("--tls-cert", "client certificate", flags.cert(), problems);
        Optional<PemFile> key = read("--tls-key", "client key", flags.key(), problems);
        ca.ifPresent(file -> certificates("--tls-ca", file, problems));
        cert.ifPresent(file -> certificates("--tls-cert", file, problems));
        key.ifPresent(file -> keyBlock(file, problems));
        if (!problems.isEmpty()) {
            throw new PlanException(problems);
        }
        if (ca.isPresent()) {
            tls = tls.withCa(ca);
        }
        if (cert.isPresent() && key.isPresent()) {
            tls = tls.withClientCertificate(cert, key);
        }
        return profile.withTls(Optional.of(tls));
    }

    private static Optional<PemFile> read(
            String flag, String what, Optional<Path> path, List<String> problems) {
        if (path.isEmpty()) {
            return Optional.empty();
        }
        try {
            byte[] content = BoundedRead.readAtMost(path.get(), MAX_PEM_BYTES, what);
            return Optional.of(new PemFile(path.get().toString(), ImmutableBytes.copyOf(content)));
        } catch (UnreadableFileException e) {
            problems.add(flag + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    private static void certificates(String flag, PemFile file, List<String> problems) {
        try {
            Pem.certificates(file.content().toByteArray());
        } catch (IllegalArgumentException e) {
            problems.add(flag + ": " + file.source() + " " + e.getMessage());
        }
    }

    private static void keyBlock(PemFile file, List<String> problems) {
        try {
            Pem.keyBlock(file.content().toByteArray());
        } catch (IllegalArgumentException e) {
            problems.add("--tls-key: " + file.source() + " " + e.getMessage());
        }
    }
}
