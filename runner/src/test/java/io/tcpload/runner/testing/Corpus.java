package io.tcpload.runner.testing;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** The wrktcp captures copied into the test resources ({@code wrktcp-corpus/}). */
public final class Corpus {
    private Corpus() {}

    public static byte[] bytes(String name) {
        try (InputStream in = Corpus.class.getResourceAsStream("/wrktcp-corpus/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no corpus file " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String text(String name) {
        return new String(bytes(name), StandardCharsets.UTF_8);
    }

    /** A corpus profile with its port replaced by {@code port}. */
    public static Profile profile(String name, int port) throws ProfileException {
        String text = text(name + ".ini").replaceAll("(?m)^port = \\d+$", "port = " + port);
        return ProfileLoader.parse(text, Path.of(name + ".ini")).profile();
    }

    /** Profile text parsed as if it were a file of that name. */
    public static Profile parse(String text) throws ProfileException {
        return ProfileLoader.parse(text, Path.of("test.ini")).profile();
    }
}
