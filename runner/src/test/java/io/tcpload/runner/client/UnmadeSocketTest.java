package io.tcpload.runner.client;

import static io.tcpload.runner.testing.TinyExchange.answersEach;
import static io.tcpload.runner.testing.TinyExchange.profile;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelException;
import io.netty.channel.ChannelFactory;
import io.netty.channel.socket.SocketChannel;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A socket that cannot be made (out of file descriptors, most often) is a connect error, and its
 * connection goes on: in rate mode without keep-alive, where each send opens a connection of its
 * own, it takes the next send after the back-off.
 */
class UnmadeSocketTest {
    @Test
    void aPacedSendWhoseSocketCannotBeMadeLeavesItsConnectionToTheNextSends() throws Exception {
        try (ScriptedServer server = new ScriptedServer(answersEach())) {
            Profile profile = profile(server.port(), false);
            long durationMs = 1_000;
            LoadConfig config =
                    new LoadConfig(
                            1,
                            1,
                            durationMs,
                            2_000,
                            false,
                            1,
                            0,
                            1,
                            RateSchedule.constant(20, durationMs),
                            false,
                            0);

            RunSummary summary = EngineRun.run(profile, config, failingFirstSocket());

            assertThat(server.failures()).isEmpty();
            assertThat(summary.counts().connectErrors()).as("%s", summary).isEqualTo(1);
            assertThat(summary.errorMessages())
                    .singleElement()
                    .satisfies(
                            e ->
                                    assertThat(e.message())
                                            .startsWith("connect: cannot open a socket"));
            assertThat(summary.counts().requests())
                    .as("sends after the failed one: %s", summary)
                    .isPositive();
        }
    }

    /** The machine's transport, whose first client socket cannot be made. */
    private static Transport failingFirstSocket() {
        Transport real = Transport.select("auto");
        AtomicInteger made = new AtomicInteger();
        ChannelFactory<SocketChannel> sockets =
                () -> {
                    if (made.getAndIncrement() == 0) {
                        throw new ChannelException("Too many open files");
                    }
                    return real.socketChannels().newChannel();
                };
        return new Transport(
                real.name(), false, real.ioHandlerFactory(), sockets, real.serverChannel());
    }
}
