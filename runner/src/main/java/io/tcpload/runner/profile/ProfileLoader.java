package io.tcpload.runner.profile;

import java.nio.file.Path;

/** Reads wrktcp INI profiles. Pure apart from reading the INI file and checking FILE data files. */
public final class ProfileLoader {
    private ProfileLoader() {}

    /**
     * Loads and validates a profile file.
     *
     * @throws ProfileException with every problem found, each with file, line and key
     */
    public static LoadedProfile load(Path file) throws ProfileException {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Parses profile text; {@code file} names it in messages and anchors relative FILE paths.
     *
     * @throws ProfileException with every problem found, each with file, line and key
     */
    public static LoadedProfile parse(String text, Path file) throws ProfileException {
        throw new UnsupportedOperationException("not yet");
    }
}
