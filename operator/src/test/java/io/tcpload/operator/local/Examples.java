package io.tcpload.operator.local;

import io.tcpload.operator.crd.TcpLoadTestSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The repository's {@code examples/*.yaml}, found from the module folder the tests run in. */
final class Examples {
    static final Path FOLDER = Path.of("..", "examples").toAbsolutePath().normalize();

    private Examples() {}

    static List<Path> all() {
        try (Stream<Path> files = Files.list(FOLDER)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".yaml"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The examples with a TcpLoadTest (all but the demo target). */
    static List<Path> tests() {
        return all().stream()
                .filter(
                        path -> {
                            try {
                                return !TestFile.read(path).tests().isEmpty();
                            } catch (BadInputException e) {
                                throw new IllegalStateException(e);
                            }
                        })
                .toList();
    }

    /**
     * The examples that run one load for any {@code --duration}: all with a TcpLoadTest but the dry
     * runs and the capacity searches, whose steps take their own time ({@code ExamplesTest} runs
     * them).
     */
    static List<Path> loads() {
        return tests().stream()
                .filter(
                        path -> {
                            try {
                                TcpLoadTestSpec spec = TestFile.read(path).singleTest().getSpec();
                                return !Boolean.TRUE.equals(spec.getDryRun())
                                        && spec.getSearch() == null;
                            } catch (BadInputException e) {
                                throw new IllegalStateException(e);
                            }
                        })
                .toList();
    }
}
