package io.tcpload.runner.profile;

import io.tcpload.runner.files.BoundedRead;
import io.tcpload.runner.files.UnreadableFileException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Data files on disk, as the command line finds them: the profile's folder first, then the working
 * folder. See {@link DataFileResolver#besideProfile}.
 */
final class FileSystemDataFiles implements DataFileResolver {
    /** Refuses data files that would take an unreasonable share of the heap. */
    static final long MAX_FILE_BYTES = 1L << 30;

    private final Path profileFolder;
    private final long capBytes;

    /**
     * @param profileFolder the absolute folder searched first, or {@code null}
     * @param capBytes the largest data file read
     */
    FileSystemDataFiles(Path profileFolder, long capBytes) {
        this.profileFolder = profileFolder;
        this.capBytes = capBytes;
    }

    @Override
    public Lookup resolve(String name) {
        return resolve(name, capBytes, "data file");
    }

    @Override
    public Lookup resolve(String name, long cap, String what) {
        List<Path> candidates;
        try {
            candidates = candidates(Path.of(name));
        } catch (InvalidPathException e) {
            return new Refused(Values.quote(name) + " is not a valid path: " + e.getReason() + ".");
        }
        Optional<Path> found = candidates.stream().filter(Files::exists).findFirst();
        if (found.isEmpty()) {
            return new Refused(
                    "the "
                            + what
                            + " "
                            + Values.quote(name)
                            + " was not found; looked for "
                            + String.join(" and ", candidates.stream().map(Path::toString).toList())
                            + ".");
        }
        Path path = found.get();
        if (Files.isDirectory(path)) {
            return new Refused("the " + what + " " + path + " is not a regular file.");
        }
        try {
            // Devices, FIFOs and /proc files are read too, with the same cap.
            byte[] content = BoundedRead.readAtMost(path, Math.min(cap, capBytes), what);
            return new Found(path.toString(), ImmutableBytes.own(content));
        } catch (UnreadableFileException e) {
            return new Refused(e.getMessage());
        }
    }

    /** The profile's folder first, then the working folder; absolute paths stand alone. */
    private List<Path> candidates(Path written) {
        Set<Path> candidates = new LinkedHashSet<>();
        if (profileFolder != null && !written.isAbsolute()) {
            candidates.add(profileFolder.resolve(written).toAbsolutePath().normalize());
        }
        candidates.add(written.toAbsolutePath().normalize());
        return List.copyOf(candidates);
    }
}
