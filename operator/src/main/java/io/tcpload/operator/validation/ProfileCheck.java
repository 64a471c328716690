package io.tcpload.operator.validation;

import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.runner.profile.LoadedProfile;
import io.tcpload.runner.profile.ParameterSpec;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.ProfileProblem;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Parses a profile with the runner's own loader, as the runner pod will see it: the data files of
 * {@code spec.files} are written beside it in a private temporary folder (the loader checks FILE
 * parameters against real files), so a FILE path must name one of them. Files whose content is not
 * known (ConfigMap keys not read) get a one-line stand-in. The folder is deleted afterwards.
 */
final class ProfileCheck {
    /** Stand-in content of a data file not read; the loader needs one line. */
    private static final String STAND_IN = "0\n";

    private ProfileCheck() {}

    /** Why the profile is unusable, or empty when it loads. */
    static Optional<String> problem(String text, List<DataFile> files, Sources sources) {
        Path folder;
        try {
            folder = Files.createTempDirectory("tcpload-profile-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a folder to check the profile in", e);
        }
        try {
            for (DataFile file : files) {
                String content = sources.fileContents().getOrDefault(file.getName(), STAND_IN);
                Files.writeString(folder.resolve(file.getName()), content, StandardCharsets.UTF_8);
            }
            return check(text, folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the data files to check the profile", e);
        } finally {
            deleteQuietly(folder);
        }
    }

    private static Optional<String> check(String text, Path folder) {
        LoadedProfile loaded;
        try {
            loaded = ProfileLoader.parse(text, folder.resolve(RunnerInvocations.PROFILE_FILE));
        } catch (ProfileException e) {
            ProfileProblem first = e.problems().get(0);
            return Optional.of(describe(first, folder));
        }
        for (ParameterSpec parameter : loaded.profile().parameters()) {
            // The loader also looks in its working folder and takes absolute paths; in the pod
            // only the files beside the profile exist.
            if (parameter instanceof ParameterSpec.File file
                    && !folder.equals(file.path().getParent())) {
                return Optional.of(
                        "line "
                                + file.line()
                                + ": "
                                + file.name()
                                + ": the FILE path must be the name of one of spec.files.");
            }
        }
        return Optional.empty();
    }

    /** {@code line 12: ACCT: ...}, without the temporary folder's path. */
    private static String describe(ProfileProblem problem, Path folder) {
        String message = problem.message().replace(folder + File.separator, "");
        int lookedFor = message.indexOf("; looked for ");
        if (lookedFor >= 0) {
            message = message.substring(0, lookedFor) + " in spec.files; add it there.";
        }
        StringBuilder text = new StringBuilder();
        if (problem.line() > 0) {
            text.append("line ").append(problem.line()).append(": ");
        }
        if (!problem.key().isEmpty()) {
            text.append(problem.key()).append(": ");
        }
        return text.append(message).toString();
    }

    private static void deleteQuietly(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // A leftover temporary folder is harmless; validation's answer stands.
        }
    }
}
