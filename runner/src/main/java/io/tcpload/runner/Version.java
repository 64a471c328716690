package io.tcpload.runner;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The project's version and the runner image built with it, as the build wrote them from the POM
 * into {@code tcpload-version.properties}, so that no release has to edit a string in the code.
 */
public final class Version {
    private static final String RESOURCE = "tcpload-version.properties";

    /** The project version, e.g. {@code 0.1.0} or {@code 0.1.0-SNAPSHOT}. */
    public static final String NUMBER;

    /**
     * The runner image of this build, {@code REGISTRY/tcpload-runner:TAG}: what the {@code images}
     * profile pushes (the tag is the project version unless {@code -Dimage.tag} says otherwise).
     */
    public static final String RUNNER_IMAGE;

    static {
        Properties properties = load();
        NUMBER = value(properties, "version");
        RUNNER_IMAGE = value(properties, "runnerImage");
    }

    private Version() {}

    private static Properties load() {
        try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** A value the build filled in; one still holding a placeholder means it was not filtered. */
    private static String value(Properties properties, String key) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank() || value.contains("${")) {
            throw new IllegalStateException(
                    RESOURCE + " holds no filtered " + key + " (" + value + ")");
        }
        return value;
    }
}
