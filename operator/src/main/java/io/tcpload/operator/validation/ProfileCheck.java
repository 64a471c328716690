package io.tcpload.operator.validation;

import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.TlsSettings;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.DataFileResolver;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.LoadedProfile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.ProfileProblem;
import io.tcpload.runner.profile.TlsFilesGiven;
import io.tcpload.runner.profile.TlsSpec;
import io.tcpload.runner.profile.TlsSpec.PemFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Parses a profile with the runner's own loader, as the runner pod will see it: the only data files
 * are those of {@code spec.files}, mounted beside the profile, so a FILE path must name one of
 * them. Files whose content is not known (ConfigMap keys not read) get a one-line stand-in. Pure:
 * nothing is written or read.
 */
final class ProfileCheck {
    /** Stand-in content of a data file not read; the loader needs one line. */
    private static final String STAND_IN = "0\n";

    private ProfileCheck() {}

    /**
     * Why the profile is unusable, or empty when it loads; with {@code spec.tls} (which may be
     * null) the profile must say {@code tls = true}.
     */
    static Optional<Failure> problem(
            String field, String text, List<DataFile> files, TlsSettings tls, Sources sources) {
        try {
            LoadedProfile loaded = load(text, files, tls, sources);
            if (tls != null && loaded.profile().tls().isEmpty()) {
                return Optional.of(
                        new Failure(
                                "spec.tls",
                                "the profile does not say 'tls = true' in [common]: its"
                                        + " connections are plain TCP, so TLS files would not be"
                                        + " used."));
            }
            return Optional.empty();
        } catch (ProfileException e) {
            return Optional.of(new Failure(field, describe(e.problems().get(0))));
        }
    }

    /**
     * The profile as a runner pod loads it: its data files those of {@code spec.files}, and the
     * files of {@code spec.tls} (which may be null) in place of its own TLS paths, which are then
     * not looked up; those of them whose content is known are put in its TLS.
     */
    static LoadedProfile load(String text, List<DataFile> files, TlsSettings tls, Sources sources)
            throws ProfileException {
        TlsFilesGiven given =
                tls == null
                        ? TlsFilesGiven.NONE
                        : new TlsFilesGiven(
                                tls.getCa() != null, tls.getClientCertificate() != null);
        LoadedProfile loaded =
                ProfileLoader.parse(
                        ByteText.encode(text),
                        Path.of(RunnerInvocations.PROFILE_FILE),
                        specFiles(files, sources),
                        given);
        if (tls == null || loaded.profile().tls().isEmpty()) {
            return loaded;
        }
        TlsSpec spec = loaded.profile().tls().get();
        Optional<PemFile> ca = known(sources, RunnerInvocations.TLS_CA_FILE, "spec.tls.ca");
        if (given.ca() && ca.isPresent()) {
            spec = spec.withCa(ca);
        }
        Optional<PemFile> cert =
                known(sources, RunnerInvocations.TLS_CERT_FILE, "spec.tls.clientCertificate");
        Optional<PemFile> key =
                known(sources, RunnerInvocations.TLS_KEY_FILE, "spec.tls.clientCertificate");
        if (given.clientCertificate() && cert.isPresent() && key.isPresent()) {
            spec = spec.withClientCertificate(cert, key);
        }
        return new LoadedProfile(loaded.profile().withTls(Optional.of(spec)), loaded.warnings());
    }

    private static Optional<PemFile> known(Sources sources, String name, String field) {
        String content = sources.tlsFiles().get(name);
        return content == null
                ? Optional.empty()
                : Optional.of(
                        new PemFile(
                                field + " (" + name + ")",
                                ImmutableBytes.copyOf(content.getBytes(StandardCharsets.UTF_8))));
    }

    /** The data files the runner pod will have: spec.files, by name, and nothing else. */
    static DataFileResolver specFiles(List<DataFile> files, Sources sources) {
        Map<String, ImmutableBytes> contents = new HashMap<>();
        for (DataFile file : files) {
            if (file.getName() != null) {
                String content = sources.fileContents().getOrDefault(file.getName(), STAND_IN);
                contents.put(file.getName(), ImmutableBytes.copyOf(ByteText.encode(content)));
            }
        }
        Map<String, ImmutableBytes> known = Map.copyOf(contents);
        return name -> {
            Optional<String> fileName = plainName(name);
            if (fileName.isEmpty()) {
                // The runner would also look in its working folder and take absolute paths; in the
                // pod only the files beside the profile exist.
                return new DataFileResolver.Refused(
                        "the FILE path must be the name of one of spec.files.");
            }
            ImmutableBytes content = known.get(fileName.get());
            return content == null
                    ? new DataFileResolver.Refused(
                            "the data file '"
                                    + name
                                    + "' was not found in spec.files; add it there.")
                    : new DataFileResolver.Found(fileName.get(), content);
        };
    }

    /** The file name a FILE path comes to beside the profile ({@code ./a.txt} is {@code a.txt}). */
    private static Optional<String> plainName(String path) {
        try {
            Path normalized = Path.of(path).normalize();
            return !normalized.isAbsolute() && normalized.getNameCount() == 1
                    ? Optional.of(normalized.toString())
                    : Optional.empty();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    /** {@code line 12: ACCT: ...}: the field already says which profile. */
    private static String describe(ProfileProblem problem) {
        StringBuilder text = new StringBuilder();
        if (problem.line() > 0) {
            text.append("line ").append(problem.line()).append(": ");
        }
        if (!problem.key().isEmpty()) {
            text.append(problem.key()).append(": ");
        }
        return text.append(problem.message()).toString();
    }
}
