package io.tcpload.runner.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a whole input file into memory with a size cap that holds whatever the file is: a regular
 * file, a device such as {@code /dev/zero}, a FIFO or a {@code /proc} file. Those last ones report
 * a size of 0 or none at all, so the cap is enforced on the bytes read, never on the size the file
 * system claims: at most {@code capBytes + 1} bytes are ever read or held.
 */
public final class BoundedRead {
    /** The largest cap: a Java array holds a little less than 2 GiB. */
    public static final long MAX_CAP_BYTES = Integer.MAX_VALUE - 16;

    private BoundedRead() {}

    /**
     * Reads {@code file} whole, refusing it when it holds more than {@code capBytes} bytes. Opening
     * a FIFO waits for its writer, as any reader of a FIFO does.
     *
     * @param what what the file is to the user, for messages ("profile file", "data file")
     * @throws UnreadableFileException when the file is missing, a folder, not readable, or larger
     *     than the cap; its message is one plain sentence naming {@code what} and the file
     */
    public static byte[] readAtMost(Path file, long capBytes, String what)
            throws UnreadableFileException {
        if (capBytes < 0 || capBytes > MAX_CAP_BYTES) {
            throw new IllegalArgumentException(
                    "capBytes " + capBytes + " is outside 0.." + MAX_CAP_BYTES);
        }
        if (Files.isDirectory(file)) {
            throw new UnreadableFileException(file, what, "is a folder, not a file");
        }
        try {
            // Refuse a large regular file without reading it; the bytes read are checked anyway,
            // since the size a file claims can be wrong (0 for /proc files) or change.
            if (Files.isRegularFile(file) && Files.size(file) > capBytes) {
                throw new UnreadableFileException(
                        file,
                        what,
                        "has " + Files.size(file) + " bytes, more than the limit of " + capBytes);
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                // readNBytes grows its buffer with what arrives; it never allocates the cap.
                bytes = in.readNBytes((int) capBytes + 1);
            }
            if (bytes.length > capBytes) {
                throw new UnreadableFileException(
                        file, what, "has more than the limit of " + capBytes + " bytes");
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new UnreadableFileException(file, what, "does not exist");
        } catch (AccessDeniedException e) {
            throw new UnreadableFileException(file, what, "cannot be read (permission denied)");
        } catch (IOException e) {
            throw new UnreadableFileException(file, what, "cannot be read: " + e.getMessage());
        }
    }
}
