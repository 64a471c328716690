package io.tcpload.runner.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the samples of a Prometheus text exposition, for assertions. */
public final class Exposition {
    private Exposition() {}

    /** Each sample line as {@code series -> value}, the series written as exposed. */
    public static Map<String, Double> samples(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return samples;
    }

    /** The lines starting with {@code # TYPE name }, as {@code name -> type}. */
    public static Map<String, String> types(String text) {
        Map<String, String> types = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.split(" ");
                types.put(parts[2], parts[3]);
            }
        }
        return types;
    }
}
