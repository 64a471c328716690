package io.tcpload.runner.template;

import static io.tcpload.runner.testing.Corpus.buildText;
import static io.tcpload.runner.testing.Corpus.dataFile;
import static io.tcpload.runner.testing.Corpus.http;
import static io.tcpload.runner.testing.Corpus.profile;
import static io.tcpload.runner.testing.Corpus.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.format.IntFormat;
import io.tcpload.runner.format.Strftime;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ParameterSpec;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.RequestSpec;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RequestTemplateTest {

    private static final Instant FIXED = Instant.parse("2021-03-04T05:06:07Z");

    private static ParameterSpec.Counter counter(String name, long start, long end, String format) {
        return new ParameterSpec.Counter(name, 0, start, end, 1, IntFormat.parse(format));
    }

    @Test
    void declaredButUnusedParametersKeepARequestStatic() {
        Profile profile =
                profile(
                        raw("$(length)", "hello", 8, LengthType.BODY),
                        counter("UNUSED", 1, 9, "%ld"),
                        dataFile("NOFILE", "never used\n"));
        RequestTemplate template = RequestTemplate.compile(profile, RunnerSlice.SINGLE);

        assertThat(template.kind()).isEqualTo(RequestTemplate.Kind.STATIC);
        assertThat(buildText(template, 1)).isEqualTo("00000005hello");
        assertThat(buildText(template, 2)).isEqualTo("00000005hello");
        assertThat(template.sizeHint()).isGreaterThanOrEqualTo(13);
    }

    @Test
    void connectIdFormatsTheGivenConnectionId() {
        Profile profile =
                profile(
                        raw("$(length)", "TERM=$(TERM);", 4, LengthType.BODY),
                        new ParameterSpec.ConnectId("TERM", 0, IntFormat.parse("%08ld")));
        RequestTemplate template = RequestTemplate.compile(profile, RunnerSlice.SINGLE);

        assertThat(template.kind()).isEqualTo(RequestTemplate.Kind.PER_CONNECTION);
        assertThat(buildText(template, 10001)).isEqualTo("0014TERM=00010001;");
        assertThat(buildText(template, 20002)).isEqualTo("0014TERM=00020002;");
        assertThat(buildText(template, 1_000_000 + 10001)).isEqualTo("0014TERM=01010001;");
    }

    @Test
    void envIsReadOnceAtCompileTimeAndSentAsItsBytes() {
        Profile profile =
                profile(
                        raw("$(length)", "KEY=$(KEY);", 4, LengthType.BODY),
                        new ParameterSpec.Env("KEY", 7, "API_KEY"));
        java.util.Map<String, String> environment = new java.util.HashMap<>();
        environment.put("API_KEY", "s3cr\u00e9t");
        RequestTemplate template =
                RequestTemplate.compile(profile, RunnerSlice.SINGLE, environment::get);
        environment.put("API_KEY", "changed later");

        // A literal: the request stays static, and its bytes are the value's (UTF-8 here).
        assertThat(template.kind()).isEqualTo(RequestTemplate.Kind.STATIC);
        assertThat(buildText(template, 1)).isEqualTo("0012KEY=s3cr\u00e9t;");
    }

    @Test
    void anUnsetEnvVariableNamesTheLineTheParameterAndTheVariable() {
        Profile profile =
                profile(
                        raw("$(length)", "KEY=$(KEY);", 4, LengthType.BODY),
                        new ParameterSpec.Env("KEY", 7, "API_KEY"));

        assertThatThrownBy(() -> RequestTemplate.compile(profile, RunnerSlice.SINGLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("line 7: KEY: the environment variable API_KEY is not set");
    }

    @Test
    void connectIdWithACounterIsPerRequest() {
        Profile profile =
                profile(
                        raw("$(length)", "$(TERM)-$(N)", 2, LengthType.BODY),
                        new ParameterSpec.ConnectId("TERM", 0, IntFormat.parse("%ld")),
                        counter("N", 1, 9, "%ld"));
        RequestTemplate template = RequestTemplate.compile(profile, RunnerSlice.SINGLE);

        assertThat(template.kind()).isEqualTo(RequestTemplate.Kind.PER_REQUEST);
        assertThat(buildText(template, 7)).isEqualTo("037-1");
        assertThat(buildText(template, 8)).isEqualTo("038-2");
    }

    @Test
    void dateTimeRendersTheClockInItsZone() {
        Profile profile =
                profile(
                        raw("$(length)", "<ts>$(NOW)</ts>", 4, LengthType.BODY),
                        new ParameterSpec.DateTime(
                                "NOW", 0, Strftime.compile("%Y%m%d %H:%M:%S %z")));
        Clock clock = Clock.fixed(FIXED, ZoneId.of("Asia/Shanghai"));
        RequestTemplate template = RequestTemplate.compile(profile, RunnerSlice.SINGLE, clock);

        assertThat(template.kind()).isEqualTo(RequestTemplate.Kind.PER_REQUEST);
        assertThat(buildText(template, 1)).isEqualTo("0032<ts>20210304 13:06:07 +0800</ts>");
    }

    @Test
    void dateTimeIsRenderedOncePerSecond() {
        SteppingClock clock = new SteppingClock(FIXED.toEpochMilli(), ZoneId.of("UTC"));
        DateTimeCache cache = new DateTimeCache(Strftime.compile("%H:%M:%S"), clock);

        byte[] first = cache.now();
        clock.millis += 999;
        assertThat(cache.now()).isSameAs(first);
        clock.millis += 1;
        byte[] next = cache.now();
        assertThat(new String(first, StandardCharsets.US_ASCII)).isEqualTo("05:06:07");
        assertThat(new String(next, StandardCharsets.US_ASCII)).isEqualTo("05:06:08");
        assertThat(cache.now()).isSameAs(next);
    }

    @Test
    void undeclaredParameterIsReportedWithItsTemplateAndLine() {
        Profile profile =
                profile(new RequestSpec(false, "$(length)", 4, "x=$(NOPE)", 5, 8, LengthType.BODY));

        assertThatThrownBy(() -> RequestTemplate.compile(profile, RunnerSlice.SINGLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "request body template (line 5) uses $(NOPE), which is not declared in"
                                + " [parameters]");
    }

    @Test
    void unclosedPlaceholderIsReported() {
        Profile profile = profile(raw("$(length", "x", 8, LengthType.BODY));

        assertThatThrownBy(() -> RequestTemplate.compile(profile, RunnerSlice.SINGLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("request head template has '$(' without a closing ')': $(length");
    }

    @Test
    void aParameterDeclaredTwiceIsReported() {
        Profile profile =
                profile(
                        raw("$(length)", "$(A)", 8, LengthType.BODY),
                        counter("A", 1, 9, "%ld"),
                        counter("A", 1, 9, "%ld"));

        assertThatThrownBy(() -> RequestTemplate.compile(profile, RunnerSlice.SINGLE))
                .hasMessage("parameter A is declared more than once");
    }

    @Test
    void slicesApplyToTheTemplatesCounter() {
        Profile profile = profile(raw("", "$(N),", 0, LengthType.BODY), counter("N", 1, 6, "%ld"));
        RequestTemplate second = RequestTemplate.compile(profile, new RunnerSlice(1, 2));

        assertThat(
                        buildText(second, 1)
                                + buildText(second, 1)
                                + buildText(second, 1)
                                + buildText(second, 1))
                .isEqualTo("4,5,6,4,");
    }

    @Test
    void concurrentBuildersNeitherDuplicateNorLoseCounterValues() throws Exception {
        int threads = 4;
        int perThread = 25_000;
        Profile profile =
                profile(
                        raw("$(length)", "$(N)", 8, LengthType.BODY),
                        counter("N", 1, 10_000_000, "%ld"));
        RequestTemplate template = RequestTemplate.compile(profile, RunnerSlice.SINGLE);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(
                        pool.submit(
                                () -> {
                                    long[] values = new long[perThread];
                                    ByteBuf out = Unpooled.buffer(64);
                                    start.await();
                                    for (int i = 0; i < perThread; i++) {
                                        out.clear();
                                        template.writeRequest(out, 1);
                                        int length =
                                                Integer.parseInt(
                                                        out.toString(
                                                                0, 8, StandardCharsets.US_ASCII));
                                        assertThat(out.readableBytes()).isEqualTo(8 + length);
                                        values[i] =
                                                Long.parseLong(
                                                        out.toString(
                                                                8,
                                                                length,
                                                                StandardCharsets.US_ASCII));
                                    }
                                    return values;
                                }));
            }
            start.countDown();
            boolean[] seen = new boolean[threads * perThread + 1];
            for (Future<long[]> result : results) {
                for (long value : result.get(60, TimeUnit.SECONDS)) {
                    assertThat(value).isBetween(1L, (long) threads * perThread);
                    assertThat(seen[(int) value]).as("value %d seen twice", value).isFalse();
                    seen[(int) value] = true;
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void buildingAllocatesNothingPerRequest() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        Clock clock = Clock.fixed(FIXED, ZoneId.of("Europe/Berlin"));
        RequestTemplate raw =
                RequestTemplate.compile(
                        profile(
                                raw(
                                        "HDR$(length)",
                                        "<seq>$(SEQ)</seq><acct>$(ACCT)</acct><t>$(NOW)</t>"
                                                + "<term>$(TERM)</term><seq2>$(SEQ)</seq2>",
                                        8,
                                        LengthType.TOTAL),
                                counter("SEQ", 1, 99_999_999, "%08ld"),
                                dataFile(
                                        "ACCT",
                                        "6222000011112222\n6222000033334444\n6222000055556666\n"),
                                new ParameterSpec.DateTime(
                                        "NOW", 0, Strftime.compile("%Y-%m-%dT%H:%M:%S")),
                                new ParameterSpec.ConnectId("TERM", 0, IntFormat.parse("%06ld"))),
                        RunnerSlice.SINGLE,
                        clock);
        RequestTemplate httpTemplate =
                RequestTemplate.compile(
                        profile(
                                http(
                                        "POST / HTTP/1.1\r\nContent-Length: $(length)\r\n\r\n",
                                        "{\"seq\":\"$(SEQ)\"}"),
                                counter("SEQ", 1, 99_999_999, "%ld")),
                        RunnerSlice.SINGLE,
                        clock);
        ByteBuf out = Unpooled.buffer(1024);
        long threadId = Thread.currentThread().getId();

        buildMany(raw, httpTemplate, out, 50_000); // warm up
        long before = threads.getThreadAllocatedBytes(threadId);
        buildMany(raw, httpTemplate, out, 100_000);
        long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        assertThat(allocated).as("bytes allocated by 200k builds").isLessThan(16 * 1024);
        out.clear();
        raw.writeRequest(out, 42);
        // 150,000 requests took SEQ twice each before this one.
        assertThat(out.toString(StandardCharsets.US_ASCII))
                .isEqualTo(
                        "HDR00000125<seq>00300001</seq><acct>6222000011112222</acct>"
                                + "<t>2021-03-04T06:06:07</t><term>000042</term>"
                                + "<seq2>00300002</seq2>")
                .hasSize(125);
    }

    private static void buildMany(RequestTemplate a, RequestTemplate b, ByteBuf out, int n) {
        for (int i = 0; i < n; i++) {
            out.clear();
            a.writeRequest(out, i);
            out.clear();
            b.writeRequest(out, i);
        }
    }

    /** A clock whose time the test moves by hand. */
    private static final class SteppingClock extends Clock {
        long millis;
        private final ZoneId zone;

        SteppingClock(long millis, ZoneId zone) {
            this.millis = millis;
            this.zone = zone;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId newZone) {
            return new SteppingClock(millis, newZone);
        }
    }
}
