package io.tcpload.runner.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.search.CapacitySearch;
import io.tcpload.runner.search.SearchResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.search.StepFigures;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RateSummary;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondRows;
import io.tcpload.runner.stats.SecondSample;
import io.tcpload.runner.stats.StageResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The machine-readable result of a run ({@code "format": "tcpload-result/v1"}), and its inverse.
 *
 * <p>Every figure of the {@link RunSummary} is written. Each histogram ({@code latencyUs}, {@code
 * connectUs}, {@code handshakeUs}, {@code requestRate}) is an object holding readable figures
 * ({@code count}, {@code mean}, {@code stdev}, {@code min}, {@code max}, {@code
 * withinStdevPercent}, {@code p50}, {@code p75}, {@code p90}, {@code p99}, {@code p99_9}, {@code
 * p99_99}, in the histogram's own unit) next to {@code histogram}, its HdrHistogram compressed
 * encoding in Base64. The encoding is what {@link #read} uses, so results of several runners merge
 * exactly, with no loss from the summaries. Top-level derived rates ({@code requestsPerSec}, {@code
 * successPerSec}, {@code failurePerSec}, {@code bytesReadPerSec}) are for readers only and are
 * ignored when reading. {@code startEpochUs} is when the load really began (its first event loop
 * began, microseconds since the epoch; after a warm-up, when the measured run began, as the
 * runner's live stats say) and {@code lastStartEpochUs} when its last event loop began; a result
 * without the first reads as 0, one without the second as if every loop began at the first's
 * instant. A {@code counts} object without {@code retried} (a result written before it was counted)
 * reads as none retried, one without {@code tlsErrors} as no TLS errors, and one without {@code
 * handshakeUs} as no handshakes. {@code addresses} lists, per address the target's name resolved
 * to, the {@code requests} answered from it and the socket {@code errors} of connections to it; a
 * result without it reads as none known. {@code byRequest}, only for a transaction mix, lists per
 * named request its {@code name}, {@code requests}, {@code successes}, {@code failures} and {@code
 * latencyUs} histogram; a result without it reads as a run of one request. A row of {@code seconds}
 * that lasted less than its {@code secondsPerRow} seconds (1 when absent), such as a run's last
 * second cut short, says how long in {@code durationUs}, so that its rates are over its own length;
 * a row without it lasted them all.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonResult {
    /** The value of the {@code format} field; a reader refuses anything else. */
    public static final String FORMAT = "tcpload-result/v1";

    /**
     * Far above any real histogram (a 3-digit microsecond histogram spanning an hour compresses to
     * a few kilobytes). Beyond the text itself, decoding allocates what the encoded range and
     * precision need, which HdrHistogram caps at 5 significant digits (about 50 MB at worst).
     */
    private static final int MAX_HISTOGRAM_BASE64_CHARS = 8 * 1024 * 1024;

    private static final double[] PERCENTILES = {50, 75, 90, 99, 99.9, 99.99};
    private static final String[] PERCENTILE_KEYS = {"p50", "p75", "p90", "p99", "p99_9", "p99_99"};

    private static final ObjectMapper MAPPER =
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonResult() {}

    /** The summary as pretty-printed JSON, ending with a line end. */
    public static String write(RunSummary summary) {
        return write(summary, null);
    }

    /**
     * As {@link #write(RunSummary)}, for a run that {@code stopped} early ({@code null}: it went to
     * its end), which the result then says.
     */
    public static String write(RunSummary summary, Stopped stopped) {
        return write(summary, stopped, 1);
    }

    /**
     * The result an orchestrator fetches: as {@link #write(RunSummary, Stopped)} with the
     * per-second rows folded to at most {@link SecondRows#MAX_ROWS} ({@code secondsPerRow} says how
     * many seconds a row holds), whatever the run's length.
     */
    public static String writeCompact(RunSummary summary, Stopped stopped) {
        return write(
                summary,
                stopped,
                SecondRows.secondsPerRow(summary.info().durationMs(), SecondRows.MAX_ROWS));
    }

    private static String write(RunSummary summary, Stopped stopped, int secondsPerRow) {
        return serialise(tree(summary, stopped, secondsPerRow));
    }

    /**
     * A capacity search's result: the result of the step its capacity rests on (the confirmation
     * that held, else the last step), as any run's, and a {@code search} object with the objective,
     * the range, the outcome, the wall time and every step: its rate, kind, figures, backlog,
     * verdict and reasons, and its whole result (every histogram), so that the steps of several
     * runners can be merged exactly.
     */
    public static String writeSearch(SearchResult result, SearchSpec spec, Stopped stopped) {
        ObjectNode root = tree(result.headline(), stopped, 1);
        CapacitySearch.Outcome outcome = result.outcome();
        ObjectNode search = root.putObject("search");
        search.put("slo", spec.slo().text());
        search.put("minRate", spec.minRate());
        search.put("maxRate", spec.maxRate());
        search.put("stepMs", spec.stepMs());
        search.put("warmupMs", spec.warmupMs());
        search.put("precision", spec.precision());
        search.put("end", outcome.end().name().toLowerCase(Locale.ROOT));
        search.put("capacity", outcome.capacity());
        search.put("message", outcome.message());
        search.put("wallTimeMs", result.wallTimeMs());
        search.put("stepCount", outcome.steps().size());
        ArrayNode steps = search.putArray("steps");
        for (int i = 0; i < outcome.steps().size(); i++) {
            CapacitySearch.Step step = outcome.steps().get(i);
            StepFigures figures = step.figures();
            ObjectNode node = steps.addObject();
            node.put("number", step.order().number());
            node.put("kind", step.order().kind().written());
            node.put("targetRate", step.order().rate());
            node.put("achievedRate", figures.achievedRate());
            node.put("secondHalfRate", figures.secondHalfRate());
            node.put("backlogAtMid", figures.backlogAtMid());
            node.put("backlogAtEnd", figures.backlogAtEnd());
            node.put("p50Ms", figures.figures().p50Ms());
            node.put("p90Ms", figures.figures().p90Ms());
            node.put("p99Ms", figures.figures().p99Ms());
            node.put("p999Ms", figures.figures().p999Ms());
            node.put("errors", figures.errors());
            node.put("held", step.verdict().held());
            ArrayNode reasons = node.putArray("reasons");
            step.verdict().reasons().forEach(reasons::add);
            node.set("result", tree(result.stepResults().get(i), null, 1));
        }
        return serialise(root);
    }

    private static String serialise(ObjectNode root) {
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            // A tree of plain values always serialises; reaching this is a bug here.
            throw new IllegalStateException("cannot write the result as JSON", e);
        }
    }

    private static ObjectNode tree(RunSummary summary, Stopped stopped, int secondsPerRow) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        if (stopped != null) {
            root.putObject("stopped")
                    .put("signal", stopped.signal())
                    .put("afterMs", stopped.afterMs());
        }
        root.set("info", info(summary.info()));
        root.put("runtimeUs", summary.runtimeUs());
        root.put("startEpochUs", summary.startEpochUs());
        root.put("lastStartEpochUs", summary.lastStartEpochUs());

        Counts counts = summary.counts();
        double seconds = summary.runtimeUs() / 1_000_000.0;
        root.put("requestsPerSec", ConsoleReport.perSecond(counts.requests(), seconds));
        root.put("successPerSec", ConsoleReport.perSecond(counts.successes(), seconds));
        root.put("failurePerSec", ConsoleReport.perSecond(counts.failures(), seconds));
        root.put("bytesReadPerSec", ConsoleReport.perSecond(counts.bytesRead(), seconds));

        root.set("counts", counts(counts));
        root.set("latencyUs", histogram(summary.latencyUs()));
        root.set("connectUs", histogram(summary.connectUs()));
        root.set("handshakeUs", histogram(summary.handshakeUs()));
        root.set("requestRate", histogram(summary.requestRate()));

        if (secondsPerRow > 1) {
            root.put("secondsPerRow", secondsPerRow);
        }
        ArrayNode series = root.putArray("seconds");
        for (SecondSample second : SecondRows.fold(summary.seconds(), secondsPerRow)) {
            ObjectNode node = series.addObject();
            node.put("second", second.second());
            node.set("counts", counts(second.counts()));
            node.put("latencyP50Us", second.latencyP50Us());
            node.put("latencyP90Us", second.latencyP90Us());
            node.put("latencyP99Us", second.latencyP99Us());
            node.put("latencyMaxUs", second.latencyMaxUs());
            if (second.durationUs() != secondsPerRow * SecondSample.SECOND_US) {
                // Only a row shorter than its seconds says how long it was: a run's last one.
                node.put("durationUs", second.durationUs());
            }
        }

        ArrayNode errors = root.putArray("errorMessages");
        for (RunSummary.ErrorCount error : summary.errorMessages()) {
            errors.addObject().put("message", error.message()).put("count", error.count());
        }

        ArrayNode addresses = root.putArray("addresses");
        for (RunSummary.AddressCount address : summary.addresses()) {
            addresses
                    .addObject()
                    .put("address", address.address())
                    .put("requests", address.requests())
                    .put("errors", address.errors());
        }

        if (summary.rate() != null) {
            root.set("rate", rate(summary.rate()));
        }

        if (!summary.byRequest().isEmpty()) {
            ArrayNode byRequest = root.putArray("byRequest");
            for (RunSummary.RequestStats row : summary.byRequest()) {
                ObjectNode node = byRequest.addObject();
                node.put("name", row.name());
                node.put("requests", row.requests());
                node.put("successes", row.successes());
                node.put("failures", row.failures());
                node.set("latencyUs", histogram(row.latencyUs()));
            }
        }
        return root;
    }

    /**
     * Why the run of a result written by {@link #write(RunSummary, Stopped)} stopped early; empty
     * for a run that went to its end.
     *
     * @throws IllegalArgumentException naming the field, when the text is not such a result
     */
    public static Optional<Stopped> stopped(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "result JSON is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject() || !root.has("stopped")) {
            return Optional.empty();
        }
        JsonNode node = object(root, "stopped", "stopped");
        try {
            return Optional.of(
                    new Stopped(
                            text(node, "signal", "stopped.signal"),
                            longValue(node, "afterMs", "stopped.afterMs")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("result JSON: stopped: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a result written by {@link #write}. The histograms are decoded from their compressed
     * form, equal to the ones written, and resize themselves when merged with larger ones.
     *
     * @throws IllegalArgumentException naming the field, when the text is not such a result
     */
    public static RunSummary read(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "result JSON is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("result JSON must be an object");
        }
        String format = text(root, "format", "format");
        if (!FORMAT.equals(format)) {
            throw new IllegalArgumentException(
                    "result JSON: format is '" + format + "', expected '" + FORMAT + "'");
        }

        JsonNode infoNode = object(root, "info", "info");
        RunInfo info =
                new RunInfo(
                        text(infoNode, "target", "info.target"),
                        text(infoNode, "profileName", "info.profileName"),
                        integer(infoNode, "threads", "info.threads"),
                        integer(infoNode, "connections", "info.connections"),
                        longValue(infoNode, "durationMs", "info.durationMs"),
                        longValue(infoNode, "timeoutMs", "info.timeoutMs"),
                        bool(infoNode, "keepAlive", "info.keepAlive"),
                        integer(infoNode, "pipeline", "info.pipeline"),
                        text(infoNode, "transport", "info.transport"));

        List<SecondSample> seconds = new ArrayList<>();
        JsonNode series = array(root, "seconds", "seconds");
        JsonNode rowWidth = root.get("secondsPerRow");
        long rowUs =
                (rowWidth == null || rowWidth.isNull()
                                ? 1
                                : positive(root, "secondsPerRow", "secondsPerRow"))
                        * SecondSample.SECOND_US;
        for (int i = 0; i < series.size(); i++) {
            String path = "seconds[" + i + "]";
            JsonNode node = series.get(i);
            if (!node.isObject()) {
                throw new IllegalArgumentException("result JSON: " + path + " must be an object");
            }
            seconds.add(
                    new SecondSample(
                            integer(node, "second", path + ".second"),
                            readCounts(object(node, "counts", path + ".counts"), path + ".counts"),
                            longValue(node, "latencyP50Us", path + ".latencyP50Us"),
                            longValue(node, "latencyP90Us", path + ".latencyP90Us"),
                            longValue(node, "latencyP99Us", path + ".latencyP99Us"),
                            longValue(node, "latencyMaxUs", path + ".latencyMaxUs"),
                            node.has("durationUs")
                                    ? positive(node, "durationUs", path + ".durationUs")
                                    : rowUs));
        }

        List<RunSummary.ErrorCount> errors = new ArrayList<>();
        JsonNode errorNodes = array(root, "errorMessages", "errorMessages");
        for (int i = 0; i < errorNodes.size(); i++) {
            String path = "errorMessages[" + i + "]";
            JsonNode node = errorNodes.get(i);
            if (!node.isObject()) {
                throw new IllegalArgumentException("result JSON: " + path + " must be an object");
            }
            errors.add(
                    new RunSummary.ErrorCount(
                            text(node, "message", path + ".message"),
                            longValue(node, "count", path + ".count")));
        }

        List<RunSummary.AddressCount> addresses = new ArrayList<>();
        JsonNode addressNodes = root.get("addresses");
        if (addressNodes != null && !addressNodes.isNull()) {
            addressNodes = array(root, "addresses", "addresses");
            for (int i = 0; i < addressNodes.size(); i++) {
                String path = "addresses[" + i + "]";
                JsonNode node = addressNodes.get(i);
                if (!node.isObject()) {
                    throw new IllegalArgumentException(
                            "result JSON: " + path + " must be an object");
                }
                addresses.add(
                        new RunSummary.AddressCount(
                                text(node, "address", path + ".address"),
                                longValue(node, "requests", path + ".requests"),
                                longValue(node, "errors", path + ".errors")));
            }
        }

        List<RunSummary.RequestStats> byRequest = new ArrayList<>();
        if (root.hasNonNull("byRequest")) {
            JsonNode rows = array(root, "byRequest", "byRequest");
            for (int i = 0; i < rows.size(); i++) {
                String path = "byRequest[" + i + "]";
                JsonNode node = rows.get(i);
                if (!node.isObject()) {
                    throw new IllegalArgumentException(
                            "result JSON: " + path + " must be an object");
                }
                byRequest.add(
                        new RunSummary.RequestStats(
                                text(node, "name", path + ".name"),
                                longValue(node, "requests", path + ".requests"),
                                longValue(node, "successes", path + ".successes"),
                                longValue(node, "failures", path + ".failures"),
                                readHistogram(node, "latencyUs", path + ".latencyUs")));
            }
        }

        long startEpochUs = optionalLong(root, "startEpochUs");
        return new RunSummary(
                info,
                longValue(root, "runtimeUs", "runtimeUs"),
                readCounts(object(root, "counts", "counts"), "counts"),
                readHistogram(root, "latencyUs"),
                readHistogram(root, "connectUs"),
                readHistogram(root, "requestRate"),
                seconds,
                errors,
                startEpochUs,
                root.has("lastStartEpochUs")
                        ? optionalLong(root, "lastStartEpochUs")
                        : startEpochUs,
                root.hasNonNull("rate") ? readRate(object(root, "rate", "rate")) : null,
                addresses,
                root.hasNonNull("handshakeUs")
                        ? readHistogram(root, "handshakeUs")
                        : Histograms.create(),
                byRequest);
    }

    /** Rate mode's part: the wrk2 histograms, the send counts and the stages. */
    private static ObjectNode rate(RateSummary rate) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("requestedRate", rate.requestedRate());
        node.put("planned", rate.planned());
        node.put("sent", rate.sent());
        node.put("late", rate.late());
        node.set("uncorrectedUs", histogram(rate.uncorrectedUs()));
        node.set("lagUs", histogram(rate.lagUs()));
        ArrayNode stages = node.putArray("stages");
        for (StageResult stage : rate.stages()) {
            ObjectNode row = stages.addObject();
            row.put("stage", stage.stage());
            row.put("durationMs", stage.durationMs());
            row.put("fromRate", stage.fromRate());
            row.put("targetRate", stage.targetRate());
            row.put("sent", stage.sent());
            row.set("counts", counts(stage.counts()));
            row.set("latencyUs", histogram(stage.latencyUs()));
        }
        return node;
    }

    private static RateSummary readRate(JsonNode node) {
        List<StageResult> stages = new ArrayList<>();
        JsonNode rows = array(node, "stages", "rate.stages");
        for (int i = 0; i < rows.size(); i++) {
            String path = "rate.stages[" + i + "]";
            JsonNode row = rows.get(i);
            if (!row.isObject()) {
                throw new IllegalArgumentException("result JSON: " + path + " must be an object");
            }
            stages.add(
                    new StageResult(
                            integer(row, "stage", path + ".stage"),
                            longValue(row, "durationMs", path + ".durationMs"),
                            number(row, "fromRate", path + ".fromRate"),
                            number(row, "targetRate", path + ".targetRate"),
                            longValue(row, "sent", path + ".sent"),
                            readCounts(object(row, "counts", path + ".counts"), path + ".counts"),
                            readHistogram(row, "latencyUs")));
        }
        return new RateSummary(
                number(node, "requestedRate", "rate.requestedRate"),
                longValue(node, "planned", "rate.planned"),
                longValue(node, "sent", "rate.sent"),
                longValue(node, "late", "rate.late"),
                readHistogram(node, "uncorrectedUs"),
                readHistogram(node, "lagUs"),
                stages);
    }

    private static double number(JsonNode node, String name, String path) {
        JsonNode value = field(node, name, path);
        if (!value.isNumber()) {
            throw new IllegalArgumentException("result JSON: " + path + " must be a number");
        }
        return value.asDouble();
    }

    /** A whole number that results written before it existed lack: 0 then. */
    private static long optionalLong(JsonNode node, String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? 0 : longValue(node, name, name);
    }

    private static ObjectNode info(RunInfo info) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("target", info.target());
        node.put("profileName", info.profileName());
        node.put("threads", info.threads());
        node.put("connections", info.connections());
        node.put("durationMs", info.durationMs());
        node.put("timeoutMs", info.timeoutMs());
        node.put("keepAlive", info.keepAlive());
        node.put("pipeline", info.pipeline());
        node.put("transport", info.transport());
        return node;
    }

    private static ObjectNode counts(Counts counts) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("requests", counts.requests());
        node.put("successes", counts.successes());
        node.put("failures", counts.failures());
        node.put("connectErrors", counts.connectErrors());
        node.put("readErrors", counts.readErrors());
        node.put("writeErrors", counts.writeErrors());
        node.put("timeouts", counts.timeouts());
        node.put("errors", counts.errors());
        node.put("bytesRead", counts.bytesRead());
        node.put("bytesWritten", counts.bytesWritten());
        node.put("non2xx3xx", counts.non2xx3xx());
        node.put("retried", counts.retried());
        node.put("tlsErrors", counts.tlsErrors());
        return node;
    }

    private static Counts readCounts(JsonNode node, String path) {
        return new Counts(
                longValue(node, "requests", path + ".requests"),
                longValue(node, "successes", path + ".successes"),
                longValue(node, "failures", path + ".failures"),
                longValue(node, "connectErrors", path + ".connectErrors"),
                longValue(node, "readErrors", path + ".readErrors"),
                longValue(node, "writeErrors", path + ".writeErrors"),
                longValue(node, "timeouts", path + ".timeouts"),
                longValue(node, "bytesRead", path + ".bytesRead"),
                longValue(node, "bytesWritten", path + ".bytesWritten"),
                longValue(node, "non2xx3xx", path + ".non2xx3xx"),
                node.has("retried") ? longValue(node, "retried", path + ".retried") : 0,
                node.has("tlsErrors") ? longValue(node, "tlsErrors", path + ".tlsErrors") : 0);
    }

    private static ObjectNode histogram(Histogram histogram) {
        HistogramStats stats = HistogramStats.of(histogram);
        ObjectNode node = MAPPER.createObjectNode();
        node.put("count", stats.count());
        node.put("mean", stats.mean());
        node.put("stdev", stats.stdev());
        node.put("min", stats.min());
        node.put("max", stats.max());
        node.put("withinStdevPercent", stats.withinStdevPercent());
        for (int i = 0; i < PERCENTILES.length; i++) {
            node.put(
                    PERCENTILE_KEYS[i],
                    stats.count() == 0 ? 0 : histogram.getValueAtPercentile(PERCENTILES[i]));
        }
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        node.put(
                "histogram",
                Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)));
        return node;
    }

    private static Histogram readHistogram(JsonNode root, String field) {
        return readHistogram(root, field, field);
    }

    /** As {@link #readHistogram(JsonNode, String)}, the field named {@code where} in messages. */
    private static Histogram readHistogram(JsonNode root, String field, String where) {
        String path = where + ".histogram";
        String encoded = text(object(root, field, where), "histogram", path);
        if (encoded.length() > MAX_HISTOGRAM_BASE64_CHARS) {
            throw new IllegalArgumentException(
                    "result JSON: "
                            + path
                            + " is "
                            + encoded.length()
                            + " characters long, more than the "
                            + MAX_HISTOGRAM_BASE64_CHARS
                            + " allowed");
        }
        Histogram histogram;
        try {
            byte[] bytes = Base64.getDecoder().decode(encoded);
            histogram = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
        } catch (DataFormatException | RuntimeException e) {
            // The decoder reports damage with assorted unchecked exceptions (bad cookie, buffer
            // underflow, index out of bounds); they all mean the same to the reader.
            throw new IllegalArgumentException(
                    "result JSON: "
                            + path
                            + " is not a Base64 compressed HdrHistogram: "
                            + e.getMessage(),
                    e);
        }
        // The encoding does not carry the flag; without it, merging a histogram that recorded
        // larger values into this one would fail.
        histogram.setAutoResize(true);
        return histogram;
    }

    private static JsonNode field(JsonNode node, String name, String path) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("result JSON: " + path + " is missing");
        }
        return value;
    }

    private static JsonNode object(JsonNode node, String name, String path) {
        JsonNode value = field(node, name, path);
        if (!value.isObject()) {
            throw new IllegalArgumentException("result JSON: " + path + " must be an object");
        }
        return value;
    }

    private static JsonNode array(JsonNode node, String name, String path) {
        JsonNode value = field(node, name, path);
        if (!value.isArray()) {
            throw new IllegalArgumentException("result JSON: " + path + " must be an array");
        }
        return value;
    }

    private static String text(JsonNode node, String name, String path) {
        JsonNode value = field(node, name, path);
        if (!value.isTextual()) {
            throw new IllegalArgumentException("result JSON: " + path + " must be a string");
        }
        return value.textValue();
    }

    private static boolean bool(JsonNode node, String name, String path) {
        JsonNode value = field(node, name, path);
        if (!value.isBoolean()) {
            throw new IllegalArgumentException("result JSON: " + path + " must be true or false");
        }
        return value.booleanValue();
    }

    private static long longValue(JsonNode node, String name, String path) {
        JsonNode value = field(node, name, path);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException(
                    "result JSON: " + path + " must be a whole number, got " + shown(value));
        }
        return value.longValue();
    }

    private static long positive(JsonNode node, String name, String path) {
        long value = longValue(node, name, path);
        if (value < 1) {
            throw new IllegalArgumentException(
                    "result JSON: " + path + " must be positive, got " + value);
        }
        return value;
    }

    private static int integer(JsonNode node, String name, String path) {
        JsonNode value = field(node, name, path);
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new IllegalArgumentException(
                    "result JSON: "
                            + path
                            + " must be a whole number below 2^31, got "
                            + shown(value));
        }
        return value.intValue();
    }

    /** A value for an error message, cut short so hostile input cannot flood the message. */
    private static String shown(JsonNode value) {
        String text = value.toString();
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
