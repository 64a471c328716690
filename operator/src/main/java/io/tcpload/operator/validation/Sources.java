package io.tcpload.operator.validation;

import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TlsSettings;
import io.tcpload.runner.profile.LoadedProfile;
import io.tcpload.runner.profile.ProfileException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The texts a spec refers to, resolved: the profile (inline, or read from its ConfigMap by the
 * caller) and the contents of the data files that are known. Validation reads only this, never the
 * cluster.
 *
 * @param profileText the profile's INI text; empty when it comes from a ConfigMap not read
 * @param fileContents data file name to content, for the files whose content is known
 * @param tlsFiles the files of {@code spec.tls} whose content is known, by their names in the
 *     runner pod ({@code ca.crt}, {@code tls.crt}, {@code tls.key}): a local run's, from the test's
 *     own file; the operator never reads them
 */
public record Sources(
        Optional<String> profileText,
        Map<String, String> fileContents,
        Map<String, String> tlsFiles) {
    public Sources {
        fileContents = Map.copyOf(fileContents);
        tlsFiles = Map.copyOf(tlsFiles);
    }

    /** Sources without TLS files. */
    public Sources(Optional<String> profileText, Map<String, String> fileContents) {
        this(profileText, fileContents, Map.of());
    }

    /**
     * The profile as a runner pod loads it: this profile text, its data files those of {@code
     * files} with the contents known here.
     *
     * @throws ProfileException as the runner's loader reports it
     * @throws IllegalStateException when the profile's text is not known
     */
    public LoadedProfile load(List<DataFile> files) throws ProfileException {
        return load(files, null);
    }

    /**
     * As {@link #load(List)}, with the files of {@code tls} (which may be null) in place of the
     * profile's own: those known here are put in the profile's TLS.
     */
    public LoadedProfile load(List<DataFile> files, TlsSettings tls) throws ProfileException {
        return ProfileCheck.load(
                profileText.orElseThrow(() -> new IllegalStateException("no profile text")),
                files,
                tls,
                this);
    }

    /** What the spec itself carries: the inline profile and inline files. */
    public static Sources inline(TcpLoadTestSpec spec) {
        Map<String, String> files = new LinkedHashMap<>();
        for (DataFile file : spec.getFiles()) {
            if (file.getName() != null && file.getContent() != null) {
                files.put(file.getName(), file.getContent());
            }
        }
        return new Sources(Optional.ofNullable(spec.getProfile()), files);
    }
}
