package io.tcpload.operator.validation;

import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The texts a spec refers to, resolved: the profile (inline, or read from its ConfigMap by the
 * caller) and the contents of the data files that are known. Validation reads only this, never the
 * cluster.
 *
 * @param profileText the profile's INI text; empty when it comes from a ConfigMap not read
 * @param fileContents data file name to content, for the files whose content is known
 */
public record Sources(Optional<String> profileText, Map<String, String> fileContents) {
    public Sources {
        fileContents = Map.copyOf(fileContents);
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
