package io.tcpload.runner.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondRows;
import io.tcpload.runner.stats.SecondSample;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class JsonResultTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void roundTripGivesBackEveryFieldAndEqualHistograms() {
        RunSummary original = Summaries.everything();

        String json = JsonResult.write(original);
        RunSummary read = JsonResult.read(json);

        assertThat(read.info()).isEqualTo(original.info());
        assertThat(read.runtimeUs()).isEqualTo(original.runtimeUs());
        assertThat(read.counts()).isEqualTo(original.counts());
        assertThat(read.seconds()).isEqualTo(original.seconds());
        assertThat(read.errorMessages()).isEqualTo(original.errorMessages());
        assertThat(read.latencyUs()).isEqualTo(original.latencyUs());
        assertThat(read.connectUs()).isEqualTo(original.connectUs());
        assertThat(read.requestRate()).isEqualTo(original.requestRate());
        assertThat(JsonResult.write(read)).isEqualTo(json);
    }

    @Test
    void aRunStoppedBySignalSaysSoAndAWholeRunSaysNothing() {
        RunSummary summary = Summaries.everything();
        String partial = JsonResult.write(summary, new Stopped("SIGTERM", 12_345));
        String whole = JsonResult.write(summary);

        assertThat(JsonResult.stopped(partial)).contains(new Stopped("SIGTERM", 12_345));
        assertThat(JsonResult.stopped(whole)).isEmpty();
        assertThat(whole).doesNotContain("stopped");
        assertThat(JsonResult.read(partial).counts()).isEqualTo(summary.counts());
        assertThatThrownBy(() -> JsonResult.stopped(partial.replace("\"SIGTERM\"", "\"\"")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stopped");
    }

    @Test
    void theFetchedResultOfALongRunHasBoundedRowsAndTheSameTotals() {
        RunSummary summary = Summaries.everything();
        String compact = JsonResult.writeCompact(summary, null);
        RunSummary read = JsonResult.read(compact);

        int width = SecondRows.secondsPerRow(summary.info().durationMs(), SecondRows.MAX_ROWS);
        assertThat(read.seconds()).hasSize(SecondRows.fold(summary.seconds(), width).size());
        assertThat(read.seconds().size()).isLessThanOrEqualTo(SecondRows.MAX_ROWS);
        assertThat(read.counts()).isEqualTo(summary.counts());
        assertThat(read.latencyUs()).isEqualTo(summary.latencyUs());
    }

    @Test
    void aPartialLastSecondKeepsItsLengthAndWholeSecondsWriteNone() throws Exception {
        RunSummary whole = Summaries.everything();
        SecondSample last = whole.seconds().get(1);
        RunSummary cut =
                RunBuilder.from(whole)
                        .runtimeUs(1_400_000)
                        .seconds(
                                List.of(
                                        whole.seconds().get(0),
                                        new SecondSample(
                                                last.second(),
                                                last.counts(),
                                                last.latencyP50Us(),
                                                last.latencyP90Us(),
                                                last.latencyP99Us(),
                                                last.latencyMaxUs(),
                                                400_000)))
                        .build();

        String json = JsonResult.write(cut);
        JsonNode root = MAPPER.readTree(json);

        assertThat(root.at("/seconds/0").has("durationUs")).isFalse();
        assertThat(root.at("/seconds/1/durationUs").asLong()).isEqualTo(400_000);
        assertThat(JsonResult.read(json).seconds()).isEqualTo(cut.seconds());
        assertThat(JsonResult.read(JsonResult.write(whole)).seconds())
                .extracting(SecondSample::durationUs)
                .containsOnly(SecondSample.SECOND_US);
        assertThatThrownBy(() -> JsonResult.read(editedNumber(json, "/seconds/1/durationUs", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seconds[1].durationUs must be positive");
    }

    @Test
    void retriedRequestsRoundTripAndAResultWithoutThemReadsAsNone() throws Exception {
        RunSummary retried = Summaries.withRetried(Summaries.everything(), 7);
        String json = JsonResult.write(retried);
        assertThat(MAPPER.readTree(json).at("/counts/retried").asLong()).isEqualTo(7);
        assertThat(JsonResult.read(json).counts()).isEqualTo(retried.counts());

        ObjectNode older = (ObjectNode) MAPPER.readTree(json);
        ((ObjectNode) older.get("counts")).remove("retried");
        assertThat(JsonResult.read(older.toString()).counts().retried()).isZero();
    }

    @Test
    void perAddressCountsRoundTripAndAResultWithoutThemReadsAsNone() throws Exception {
        RunSummary base = Summaries.everything();
        List<RunSummary.AddressCount> addresses =
                List.of(
                        new RunSummary.AddressCount("10.1.2.3:9000", 6, 1),
                        new RunSummary.AddressCount("[fd00::4]:9000", 4, 3));
        RunSummary spread = RunBuilder.from(base).addresses(addresses).build();
        String json = JsonResult.write(spread);
        JsonNode tree = MAPPER.readTree(json);
        assertThat(tree.at("/addresses/1/address").asText()).isEqualTo("[fd00::4]:9000");
        assertThat(tree.at("/addresses/1/requests").asLong()).isEqualTo(4);
        assertThat(tree.at("/addresses/1/errors").asLong()).isEqualTo(3);
        assertThat(JsonResult.read(json).addresses()).isEqualTo(addresses);

        ObjectNode older = (ObjectNode) tree;
        older.remove("addresses");
        assertThat(JsonResult.read(older.toString()).addresses()).isEmpty();
        older.put("addresses", "everywhere");
        assertThatThrownBy(() -> JsonResult.read(older.toString()))
                .hasMessage("result JSON: addresses must be an array");
    }

    @Test
    void theStartInstantRoundTripsAndAResultWithoutItReadsAsUnknown() throws Exception {
        RunSummary base = Summaries.everything();
        RunSummary started =
                RunBuilder.from(base)
                        .startEpochUs(1_700_000_000_123_456L)
                        .lastStartEpochUs(1_700_000_000_123_789L)
                        .build();

        String json = JsonResult.write(started);
        ObjectNode withoutStart = (ObjectNode) MAPPER.readTree(json);
        withoutStart.remove("startEpochUs");
        withoutStart.remove("lastStartEpochUs");
        ObjectNode withoutLast = (ObjectNode) MAPPER.readTree(json);
        withoutLast.remove("lastStartEpochUs");

        assertThat(JsonResult.read(json).startEpochUs()).isEqualTo(1_700_000_000_123_456L);
        assertThat(JsonResult.read(json).lastStartEpochUs()).isEqualTo(1_700_000_000_123_789L);
        assertThat(JsonResult.read(withoutStart.toString()).startEpochUs()).isZero();
        assertThat(JsonResult.read(withoutStart.toString()).lastStartEpochUs()).isZero();
        assertThat(JsonResult.read(withoutLast.toString()).lastStartEpochUs())
                .isEqualTo(1_700_000_000_123_456L);
    }

    @Test
    void anEmptyRunRoundTrips() {
        RunSummary original = Summaries.empty();

        RunSummary read = JsonResult.read(JsonResult.write(original));

        assertThat(read.latencyUs().getTotalCount()).isZero();
        assertThat(read.latencyUs()).isEqualTo(original.latencyUs());
        assertThat(read.counts()).isEqualTo(Counts.ZERO);
        assertThat(read.seconds()).isEmpty();
    }

    @Test
    void mergingDecodedHistogramsEqualsMergingTheOriginals() {
        Histogram small = Summaries.histogram(120, 40, 900, 7, 1_500, 1);
        Histogram wide = new Histogram(3);
        for (long value = 1; value < 50_000_000; value = value * 3 + 7) {
            wide.recordValueWithCount(value, value % 5 + 1);
        }
        Histogram expected = small.copy();
        expected.add(wide);

        Histogram decodedSmall = JsonResult.read(JsonResult.write(withLatency(small))).latencyUs();
        Histogram decodedWide = JsonResult.read(JsonResult.write(withLatency(wide))).latencyUs();
        // The small one's range is far below the wide one's values: it must grow to take them.
        decodedSmall.add(decodedWide);

        assertThat(decodedSmall).isEqualTo(expected);
        assertThat(decodedSmall.getTotalCount()).isEqualTo(expected.getTotalCount());
        assertThat(decodedSmall.getMaxValue()).isEqualTo(expected.getMaxValue());
        assertThat(decodedSmall.getValueAtPercentile(99.99))
                .isEqualTo(expected.getValueAtPercentile(99.99));
        assertThat(decodedSmall.getMean()).isEqualTo(expected.getMean());
    }

    @Test
    void writesReadableSummariesAndDerivedRates() throws Exception {
        JsonNode root = MAPPER.readTree(JsonResult.write(Summaries.everything()));

        assertThat(root.get("format").asText()).isEqualTo("tcpload-result/v1");
        assertThat(root.get("requestsPerSec").asDouble()).isEqualTo(5.0);
        assertThat(root.get("successPerSec").asDouble()).isEqualTo(4.0);
        assertThat(root.get("failurePerSec").asDouble()).isEqualTo(1.0);
        assertThat(root.get("bytesReadPerSec").asDouble()).isEqualTo(7127.0);
        assertThat(root.at("/counts/errors").asLong()).isEqualTo(4);
        assertThat(root.at("/info/target").asText()).isEqualTo("10.1.2.3:9000");

        JsonNode latency = root.get("latencyUs");
        assertThat(latency.get("count").asLong()).isEqualTo(10);
        assertThat(latency.get("mean").asDouble()).isEqualTo(800.0);
        assertThat(latency.get("stdev").asDouble()).isCloseTo(483.05, within(0.005));
        assertThat(latency.get("min").asLong()).isEqualTo(500);
        assertThat(latency.get("max").asLong()).isEqualTo(2000);
        assertThat(latency.get("withinStdevPercent").asDouble()).isEqualTo(90.0);
        assertThat(latency.get("p50").asLong()).isEqualTo(500);
        assertThat(latency.get("p75").asLong()).isEqualTo(1000);
        assertThat(latency.get("p90").asLong()).isEqualTo(1000);
        assertThat(latency.get("p99").asLong()).isEqualTo(2000);
        assertThat(latency.get("p99_9").asLong()).isEqualTo(2000);
        assertThat(latency.get("p99_99").asLong()).isEqualTo(2000);
        assertThat(latency.get("histogram").asText()).isNotBlank();
        assertThat(root.at("/requestRate/mean").asDouble()).isEqualTo(1100.0);
        assertThat(root.at("/connectUs/max").asLong()).isEqualTo(200);

        assertThat(root.at("/seconds/1/second").asInt()).isEqualTo(2);
        assertThat(root.at("/seconds/1/latencyP90Us").asLong()).isEqualTo(2000);
        assertThat(root.at("/seconds/1/latencyP99Us").asLong()).isEqualTo(2000);
        assertThat(root.at("/seconds/1/counts/writeErrors").asLong()).isEqualTo(2);
        assertThat(root.at("/errorMessages/0/message").asText()).isEqualTo("write: broken pipe");
        assertThat(root.at("/errorMessages/0/count").asLong()).isEqualTo(3);
    }

    @Test
    void refusesTextThatIsNotAResultNamingWhatIsWrong() throws Exception {
        String good = JsonResult.write(Summaries.everything());

        assertThatThrownBy(() -> JsonResult.read("{not json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> JsonResult.read("[1,2]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be an object");
        assertThatThrownBy(() -> JsonResult.read(edited(good, "/format", "tcpload-result/v2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("format is 'tcpload-result/v2'");
        assertThatThrownBy(() -> JsonResult.read(removed(good, "/counts", "timeouts")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("counts.timeouts is missing");
        assertThatThrownBy(() -> JsonResult.read(edited(good, "/info/threads", "four")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("info.threads must be a whole number");
        assertThatThrownBy(() -> JsonResult.read(removed(good, "/seconds/1", "latencyP99Us")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seconds[1].latencyP99Us is missing");
        assertThatThrownBy(() -> JsonResult.read(edited(good, "/latencyUs/histogram", "@@@")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "latencyUs.histogram is not a Base64 compressed HdrHistogram");
        assertThatThrownBy(() -> JsonResult.read(edited(good, "/connectUs/histogram", "AAAAAAAA")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "connectUs.histogram is not a Base64 compressed HdrHistogram");
    }

    @Test
    void refusesAnOversizedHistogramBeforeDecodingIt() throws Exception {
        String good = JsonResult.write(Summaries.everything());
        String huge = "A".repeat(8 * 1024 * 1024 + 4);

        assertThatThrownBy(() -> JsonResult.read(edited(good, "/requestRate/histogram", huge)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("requestRate.histogram is 8388612 characters long");
    }

    private static RunSummary withLatency(Histogram latencyUs) {
        RunSummary base = Summaries.empty();
        return RunBuilder.aRun()
                .info(base.info())
                .runtimeUs(base.runtimeUs())
                .counts(base.counts())
                .latencyUs(latencyUs)
                .connectUs(base.connectUs())
                .requestRate(base.requestRate())
                .build();
    }

    /** {@code json} with the text field at {@code pointer} replaced by {@code value}. */
    private static String edited(String json, String pointer, String value) throws Exception {
        JsonNode root = MAPPER.readTree(json);
        int slash = pointer.lastIndexOf('/');
        ObjectNode parent =
                slash == 0 ? (ObjectNode) root : (ObjectNode) root.at(pointer.substring(0, slash));
        parent.put(pointer.substring(slash + 1), value);
        return MAPPER.writeValueAsString(root);
    }

    private static String editedNumber(String json, String pointer, long value) throws Exception {
        JsonNode root = MAPPER.readTree(json);
        int slash = pointer.lastIndexOf('/');
        ((ObjectNode) root.at(pointer.substring(0, slash)))
                .put(pointer.substring(slash + 1), value);
        return MAPPER.writeValueAsString(root);
    }

    private static String removed(String json, String pointer, String field) throws Exception {
        JsonNode root = MAPPER.readTree(json);
        ((ObjectNode) root.at(pointer)).remove(field);
        return MAPPER.writeValueAsString(root);
    }
}
