package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DueResponsesTest {
    private final EventLoop loop = new DefaultEventLoop();
    private final DueResponses due = new DueResponses(loop);

    /** Everything the writers saw, in order: "write name at ns" and "flush name". */
    private final List<String> events = new CopyOnWriteArrayList<>();

    private final List<Long> writtenAtNs = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopLoop() throws Exception {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private DueResponses.Writer writer(String name, boolean open) {
        // Like a connection: a flush with nothing written since the last one sends nothing.
        return new DueResponses.Writer() {
            private boolean unflushed;

            @Override
            public boolean writeHeld(ResponseFactory.Connection connection) {
                events.add("write " + name + " " + connection);
                writtenAtNs.add(System.nanoTime());
                unflushed |= open;
                return open;
            }

            @Override
            public void flushHeld() {
                if (unflushed) {
                    unflushed = false;
                    events.add("flush " + name);
                }
            }
        };
    }

    private void onLoop(Runnable task) throws Exception {
        loop.submit(task).sync();
    }

    @Test
    void responsesFallingDueTogetherGoOutInTheOrderTheyWereHeldEachSentBeforeTheNext()
            throws Exception {
        // A stall's end: every held response is due at the same instant.
        long heldAtNs = System.nanoTime();
        long stallEndNs = heldAtNs + TimeUnit.MILLISECONDS.toNanos(60);
        DueResponses.Writer a = writer("a", true);
        DueResponses.Writer b = writer("b", true);
        DueResponses.Writer c = writer("c", true);
        onLoop(
                () -> {
                    due.hold(a, ResponseFactory.Connection.DEFAULT, stallEndNs);
                    due.hold(b, ResponseFactory.Connection.DEFAULT, stallEndNs);
                    due.hold(a, ResponseFactory.Connection.CLOSE, stallEndNs);
                    due.hold(c, ResponseFactory.Connection.KEEP_ALIVE, stallEndNs);
                    due.hold(c, ResponseFactory.Connection.DEFAULT, stallEndNs);
                });
        await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 9);
        assertThat(events)
                .containsExactly(
                        "write a DEFAULT",
                        "flush a",
                        "write b DEFAULT",
                        "flush b",
                        "write a CLOSE",
                        "flush a",
                        // a connection's answers due one after another leave in one send
                        "write c KEEP_ALIVE",
                        "write c DEFAULT",
                        "flush c");
        assertThat(writtenAtNs).allSatisfy(at -> assertThat(at).isGreaterThanOrEqualTo(stallEndNs));
    }

    @Test
    void aResponseIsNeverWrittenBeforeItIsDueNorBeforeAnEarlierOne() throws Exception {
        long nowNs = System.nanoTime();
        long laterNs = nowNs + TimeUnit.MILLISECONDS.toNanos(80);
        long soonerNs = nowNs + TimeUnit.MILLISECONDS.toNanos(20);
        onLoop(
                () -> {
                    due.hold(writer("late", true), ResponseFactory.Connection.DEFAULT, laterNs);
                    // Due sooner, but held after: it waits for the one before it.
                    due.hold(writer("next", true), ResponseFactory.Connection.DEFAULT, soonerNs);
                });
        await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 4);
        assertThat(events)
                .containsExactly(
                        "write late DEFAULT", "flush late", "write next DEFAULT", "flush next");
        assertThat(writtenAtNs).allSatisfy(at -> assertThat(at).isGreaterThanOrEqualTo(laterNs));
    }

    @Test
    void responsesDueApartGoOutApartAndAClosedConnectionIsNotFlushed() throws Exception {
        long nowNs = System.nanoTime();
        long firstNs = nowNs + TimeUnit.MILLISECONDS.toNanos(10);
        long secondNs = nowNs + TimeUnit.MILLISECONDS.toNanos(150);
        onLoop(
                () -> {
                    due.hold(writer("gone", false), ResponseFactory.Connection.DEFAULT, firstNs);
                    due.hold(writer("open", true), ResponseFactory.Connection.DEFAULT, secondNs);
                });
        await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 3);
        assertThat(events)
                .containsExactly("write gone DEFAULT", "write open DEFAULT", "flush open");
        assertThat(writtenAtNs.get(0)).isBetween(firstNs, secondNs - 1);
        assertThat(writtenAtNs.get(1)).isGreaterThanOrEqualTo(secondNs);
    }
}
