package io.tcpload.runner.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.TimeZone;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class StrftimeTest {

    /**
     * Every conversion, the composites and the E/O modifiers, as the results file was made with.
     */
    static final String ALL_CONVERSIONS =
            "%a %A %b %B %c|%C %d %D %e %F %g %G %h %H %I %j %m %M %n %p %r %R %S %t %T %u %U %V"
                    + " %w %W %x %X %y %Y %z %Z %% %Ey %OH %EC";

    static Stream<Arguments> cResults() throws IOException {
        try (InputStream in =
                        Objects.requireNonNull(
                                StrftimeTest.class.getResourceAsStream("strftime-c-results.tsv"));
                BufferedReader reader =
                        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return reader
                    .lines()
                    .filter(line -> !line.startsWith("#") && !line.isBlank())
                    .map(line -> line.split("\t", 3))
                    .map(
                            f ->
                                    Arguments.of(
                                            f[0],
                                            Long.parseLong(f[1]),
                                            f[2].replace("\\n", "\n").replace("\\t", "\t")))
                    .toList()
                    .stream();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cResults")
    void rendersLikeCStrftime(String zone, long epochSecond, String expected) {
        Strftime format = Strftime.compile(ALL_CONVERSIONS);

        assertThat(format.format(epochSecond, ZoneId.of(zone))).isEqualTo(expected);
        assertThat(format.render(epochSecond, ZoneId.of(zone)))
                .isEqualTo(expected.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void typicalBankingTimestamp() {
        Strftime format = Strftime.compile("%Y%m%d%H%M%S");
        // 2021-03-04 05:06:07 UTC
        assertThat(format.format(1614834367L, ZoneOffset.UTC)).isEqualTo("20210304050607");
        assertThat(format.format(1614834367L, ZoneId.of("Asia/Shanghai")))
                .isEqualTo("20210304130607");
    }

    @Test
    void literalTextIsKept() {
        Strftime format = Strftime.compile("T=%H:%M 100%% done");
        assertThat(format.format(3600 * 13 + 60 * 7, ZoneOffset.UTC))
                .isEqualTo("T=13:07 100% done");
    }

    @Test
    void defaultRenderUsesTheProcessTimeZone() {
        TimeZone saved = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
            assertThat(
                            new String(
                                    Strftime.compile("%F %T %Z").render(0),
                                    StandardCharsets.US_ASCII))
                    .isEqualTo("1969-12-31 19:00:00 EST");
        } finally {
            TimeZone.setDefault(saved);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"%Q", "%Y-%i", "%Ef", "%J", "%5J"})
    void unknownConversionIsRejectedNamingIt(String pattern) {
        String conversion = "%" + pattern.charAt(pattern.length() - 1);
        assertThatThrownBy(() -> Strftime.compile(pattern))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown conversion '" + conversion + "'");
    }

    /** Expected texts from GNU date, which formats as glibc's strftime does. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "%-d|4",
                "%_H|18",
                "%010Y|0000002025",
                "%^a|THU",
                "%#b|DEC",
                "%s|1764871200",
                "%k|18",
                "%l|' 6'",
                "%P|pm",
                "%-m/%-d|12/4",
                "%#p|pm",
                "%10A|'  Thursday'",
                "%_5j|'  338'",
                "%-y|25",
                "%^B|DECEMBER",
                "%#Z|utc",
                "%3d|004",
                "%-I|6",
                "%_M|' 0'",
            })
    void glibcsConversionsFlagsAndWidthsRenderAsGlibcDoes(String pattern, String expected) {
        assertThat(Strftime.compile(pattern).format(1764871200L, ZoneId.of("UTC")))
                .isEqualTo(expected);
    }

    @Test
    void aFlagOnACompositeConversionIsRefused() {
        assertThatThrownBy(() -> Strftime.compile("%-D"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "date/time format '%-D' gives a flag or width to '%D', which takes none"
                                + " here; give them to its parts");
    }

    @Test
    void trailingLonePercentIsRejected() {
        assertThatThrownBy(() -> Strftime.compile("%Y%"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "date/time format '%Y%' ends with a lone '%'; write %% for a percent sign");
        assertThatThrownBy(() -> Strftime.compile("%E")).hasMessageContaining("lone '%'");
    }

    @Test
    void equalityFollowsTheFormatText() {
        assertThat(Strftime.compile("%F")).isEqualTo(Strftime.compile("%F"));
        assertThat(Strftime.compile("%F")).hasSameHashCodeAs(Strftime.compile("%F"));
        assertThat(Strftime.compile("%F")).isNotEqualTo(Strftime.compile("%Y-%m-%d"));
        assertThat(Strftime.compile("%F")).hasToString("%F");
    }
}
