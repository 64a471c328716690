package io.tcpload.runner.profile;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the data of FILE parameters comes from: the name written after {@code FILE,} gives the
 * file's bytes, or a sentence saying why there are none. The loader asks once per name and does no
 * I/O of its own, so a resolver over data already in memory makes loading pure.
 *
 * <p>Implementations are immutable and say in their messages where they looked: the command line's
 * ({@link #besideProfile}) names the paths it tried, the operator's names {@code spec.files}.
 */
@FunctionalInterface
public interface DataFileResolver {

    /**
     * Looks up a data file.
     *
     * @param name the path as written in the profile, trimmed and never empty
     */
    Lookup resolve(String name);

    /**
     * Looks up a small file (a certificate, a key), refusing one of more than {@code capBytes}
     * bytes; a resolver that reads files reads no more than that.
     *
     * @param what what the file is to the user, for messages ("CA bundle", "client key")
     */
    default Lookup resolve(String name, long capBytes, String what) {
        Lookup lookup = resolve(name);
        if (lookup instanceof Found found && found.content().length() > capBytes) {
            return new Refused(
                    "the "
                            + what
                            + " "
                            + found.source()
                            + " has "
                            + found.content().length()
                            + " bytes, more than the limit of "
                            + capBytes
                            + ".");
        }
        return lookup;
    }

    /** What a lookup gives: the data, or why there is none. */
    sealed interface Lookup permits Found, Refused {}

    /**
     * The data file's content.
     *
     * @param source how messages name the file: its path, or its name where that is all it has
     * @param content every byte of it
     */
    record Found(String source, ImmutableBytes content) implements Lookup {
        public Found {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(content, "content");
        }
    }

    /**
     * No usable data file.
     *
     * @param message one plain sentence, e.g. {@code the data file 'a.txt' was not found; looked
     *     for /p/a.txt and /w/a.txt.}
     */
    record Refused(String message) implements Lookup {
        public Refused {
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * The command line's lookup: a relative path is looked for in the profile file's folder first,
     * then in the working folder; an absolute path stands alone. Files are read whole, up to {@link
     * FileSystemDataFiles#MAX_FILE_BYTES} bytes, when a name is resolved.
     *
     * @param profileFile the profile file, or {@code null} when the profile is not a file (then
     *     only the working folder is searched)
     */
    static DataFileResolver besideProfile(Path profileFile) {
        Path folder = profileFile == null ? null : profileFile.toAbsolutePath().getParent();
        return new FileSystemDataFiles(folder, FileSystemDataFiles.MAX_FILE_BYTES);
    }
}
