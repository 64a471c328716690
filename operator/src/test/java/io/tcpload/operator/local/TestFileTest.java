package io.tcpload.operator.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.operator.crd.TcpLoadTestSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A test file is read as kubectl reads it before it sends it to a cluster. */
class TestFileTest {
    private static final Path FILE = Path.of("test.yaml");

    private static final String HEAD =
            """
            apiVersion: tcpload.io/v1alpha1
            kind: TcpLoadTest
            metadata:
              name: t
            spec:
              profile: |
                [common]
                host = 127.0.0.1
                port = 9
                [request]
                req_body = $(A)
                [parameters]
                A = FILE, a.txt
            """;

    private static TcpLoadTestSpec spec(String specLines) throws BadInputException {
        return TestFile.parse(FILE, HEAD + specLines).singleTest().getSpec();
    }

    @Test
    void anAliasIsTheValueItsAnchorMarksNotTheAnchorsName() throws Exception {
        TestFile file =
                TestFile.parse(
                        FILE,
                        HEAD
                                + """
                                  files:
                                    - {name: a.txt, content: &accts "1001\\n1002\\n"}
                                    - {name: b.txt, content: *accts}
                                  duration: &dur 2s
                                  timeout: *dur
                                """);
        TcpLoadTestSpec spec = file.singleTest().getSpec();

        assertThat(spec.getFiles().get(1).getContent()).isEqualTo("1001\n1002\n");
        assertThat(spec.getTimeout()).isEqualTo("2s");
        assertThat(file.sources(spec).sources().orElseThrow().fileContents())
                .containsEntry("b.txt", "1001\n1002\n");
    }

    @Test
    void anAliasOfAMapIsACopyAndAMergeKeyAddsTheFieldsNotSet() throws Exception {
        TcpLoadTestSpec spec =
                spec(
                        """
                          files:
                            - &first {name: a.txt, content: "1\\n"}
                            - {<<: *first, name: b.txt}
                          stages:
                            - &stage {duration: 1s, rate: 10}
                            - *stage
                        """);

        assertThat(spec.getFiles().get(1).getName()).isEqualTo("b.txt");
        assertThat(spec.getFiles().get(1).getContent()).isEqualTo("1\n");
        assertThat(spec.getFiles().get(0).getName()).isEqualTo("a.txt");
        assertThat(spec.getStages()).hasSize(2);
        assertThat(spec.getStages().get(1).getRate()).isEqualTo(10L);
    }

    @Test
    void anAliasBeforeItsAnchorIsRefusedWithItsLine() {
        assertThatThrownBy(() -> spec("  duration: *dur\n"))
                .isInstanceOf(BadInputException.class)
                .hasMessage("test.yaml: line 14: alias *dur names no anchor &dur before it");
    }

    @Test
    @Timeout(10)
    void aBillionLaughsIsRefusedBeforeItIsExpanded() {
        StringBuilder bomb = new StringBuilder(HEAD + "  a0: &a0 [\"lol\", \"lol\"]\n");
        for (int level = 1; level <= 40; level++) {
            bomb.append("  a")
                    .append(level)
                    .append(": &a")
                    .append(level)
                    .append(" [*a")
                    .append(level - 1)
                    .append(", *a")
                    .append(level - 1)
                    .append("]\n");
        }

        assertThatThrownBy(() -> TestFile.parse(FILE, bomb.toString()))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("its aliases stand for more than " + TestFile.MAX_BYTES)
                .hasMessageContaining("characters");
    }

    @Test
    void scalarsAreTypedAsBefore() throws Exception {
        TcpLoadTestSpec spec =
                spec(
                        """
                          connections: 12
                          keepAlive: true
                          rate: 1500
                          duration: 10s
                        """);

        assertThat(spec.getConnections()).isEqualTo(12);
        assertThat(spec.getKeepAlive()).isTrue();
        assertThat(spec.getRate()).isEqualTo(1500L);
    }

    @Test
    void emptyDocumentsAreSkipped() throws Exception {
        TestFile file = TestFile.parse(FILE, "# a comment\n---\n" + HEAD + "  duration: 1s\n---\n");
        assertThat(file.tests()).hasSize(1);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "connections: 4.5 | spec.connections: must be a whole number, not '4.5'",
                "threads: 1.9     | spec.threads: must be a whole number, not '1.9'",
                "runners: 2.5     | spec.runners: must be a whole number, not '2.5'",
                "rate: 10.5       | spec.rate: must be a whole number, not '10.5'",
            })
    void aFractionForAWholeNumberIsRefusedNamingTheField(String specLine, String expected) {
        assertThatThrownBy(() -> spec("  " + specLine + "\n  duration: 1s\n"))
                .isInstanceOf(BadInputException.class)
                .hasMessage("test.yaml (document 1): " + expected);
    }

    @Test
    void aNullFieldTakesItsDefaultAsTheApiServerGivesIt() throws Exception {
        TcpLoadTestSpec spec =
                spec(
                        """
                          connections: null
                          threads: ~
                          keepAlive:
                          duration: 1s
                        """);

        TcpLoadTestSpec defaults = new TcpLoadTestSpec();
        assertThat(spec.getConnections()).isEqualTo(defaults.getConnections()).isNotNull();
        assertThat(spec.getThreads()).isEqualTo(defaults.getThreads()).isNotNull();
        assertThat(spec.getKeepAlive()).isEqualTo(defaults.getKeepAlive()).isNotNull();
    }
}
