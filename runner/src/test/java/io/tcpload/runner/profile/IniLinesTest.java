package io.tcpload.runner.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.IniLines.LogicalLine;
import java.util.List;
import org.junit.jupiter.api.Test;

class IniLinesTest {

    @Test
    void splitsOnLfAndCrlfAndNumbersPhysicalLines() {
        List<LogicalLine> lines = IniLines.split("a = 1\r\nb = 2\n\nc = 3");

        assertThat(lines)
                .containsExactly(
                        new LogicalLine(1, "a = 1"),
                        new LogicalLine(2, "b = 2"),
                        new LogicalLine(3, ""),
                        new LogicalLine(4, "c = 3"));
    }

    @Test
    void continuationReplacesTheBackslashWithNewlineAndKeepsIndentation() {
        List<LogicalLine> lines = IniLines.split("body = \\\n  <a>\\\n  </a>\nnext = 1\n");

        assertThat(lines)
                .containsExactly(
                        new LogicalLine(1, "body = \n  <a>\n  </a>"),
                        new LogicalLine(4, "next = 1"));
    }

    @Test
    void anEmptyTerminatingLineLeavesTheValueEndingInNewline() {
        assertThat(IniLines.split("body = {\\\n}\\\n\nx = 1\n"))
                .containsExactly(new LogicalLine(1, "body = {\n}\n"), new LogicalLine(4, "x = 1"));
    }

    @Test
    void continuationWorksBeforeCrlf() {
        assertThat(IniLines.split("body = a\\\r\nb\r\n"))
                .containsExactly(new LogicalLine(1, "body = a\nb"));
    }

    @Test
    void aContinuedLastLineKeepsItsNewline() {
        assertThat(IniLines.split("body = a\\")).containsExactly(new LogicalLine(1, "body = a\n"));
    }

    @Test
    void trimsSpacesAndTabsButNotNewlines() {
        assertThat(IniLines.trimBlanks(" \t\nvalue\n\t ")).isEqualTo("\nvalue\n");
        assertThat(IniLines.trimBlanks(" \t ")).isEmpty();
    }
}
