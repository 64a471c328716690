package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.AddressCount;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.LoopbackDns;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A target name with several addresses (a headless Service, round-robin DNS): the connections take
 * them in turn, follow them as they change, and the result counts what each address got.
 */
class SeveralAddressesTest {
    /** The target's name in these tests; only the resolvers here know it. */
    private static final String NAME = "pods.tcpload.test";

    private final List<DemoServer> servers = new ArrayList<>();

    @AfterEach
    void stopServers() {
        servers.forEach(DemoServer::close);
    }

    private static InetAddress loopback(int last) throws UnknownHostException {
        return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
    }

    /**
     * Starts demo targets on 127.0.0.1, 127.0.0.2, ... sharing one port (the first one's, chosen by
     * the system; tried again on another if one of the others is taken there).
     *
     * @return the port
     */
    private int startServers(Profile profile, int count) throws Exception {
        for (int attempt = 0; ; attempt++) {
            servers.forEach(DemoServer::close);
            servers.clear();
            try {
                DemoServer first =
                        DemoServer.start(
                                profile, ServeOptions.defaults().withBindHost("127.0.0.1"));
                servers.add(first);
                for (int i = 2; i <= count; i++) {
                    servers.add(
                            DemoServer.start(
                                    profile,
                                    ServeOptions.defaults()
                                            .withBindHost("127.0.0." + i)
                                            .withPort(first.port())));
                }
                return first.port();
            } catch (Exception e) {
                if (attempt == 4) {
                    throw e;
                }
            }
        }
    }

    private static Profile named(Profile profile, int port) {
        return profile.withTarget(new Target(NAME, port));
    }

    private static long requestsOf(RunSummary summary, String address) {
        return summary.addresses().stream()
                .filter(a -> a.address().equals(address))
                .mapToLong(AddressCount::requests)
                .sum();
    }

    @Test
    void connectionsTakeTheAddressesInTurnAndEachIsCounted() throws Exception {
        Profile profile = Corpus.profile("01_tiny", 1).withKeepAlive(true);
        int port = startServers(profile, 3);
        List<InetAddress> three = List.of(loopback(3), loopback(1), loopback(2));
        RunSummary summary =
                EngineRun.runResolved(
                        named(profile, port),
                        new LoadConfig(2, 6, 5_000, 5_000, true, 1, 0),
                        host -> three,
                        () -> servers.stream().allMatch(s -> s.requestsServed() >= 100));

        assertThat(summary.counts().errors()).isZero();
        assertThat(summary.addresses())
                .extracting(AddressCount::address)
                .containsExactly("127.0.0.1:" + port, "127.0.0.2:" + port, "127.0.0.3:" + port);
        assertThat(summary.addresses().stream().mapToLong(AddressCount::requests).sum())
                .isEqualTo(summary.counts().requests());
        for (int i = 0; i < 3; i++) {
            long ours = summary.addresses().get(i).requests();
            // Two connections each; the server also answered what was in flight at the end.
            assertThat(ours).isPositive();
            assertThat(servers.get(i).requestsServed()).isBetween(ours, ours + 2);
        }
    }

    @Test
    void connectionsFollowTheAddressesAsTheyChange() throws Exception {
        Profile profile = Corpus.profile("01_tiny", 1);
        int port = startServers(profile, 2);
        AtomicReference<List<InetAddress>> answer = new AtomicReference<>(List.of(loopback(1)));
        InetAddress second = loopback(2);
        // One request per connection: every request reconnects and takes the latest addresses.
        RunSummary summary =
                EngineRun.runResolved(
                        named(profile, port),
                        new LoadConfig(1, 2, 10_000, 5_000, false, 1, 0),
                        host -> answer.get(),
                        () -> {
                            if (servers.get(0).requestsServed() >= 50) {
                                answer.set(List.of(second));
                            }
                            return servers.get(1).requestsServed() >= 50;
                        });

        assertThat(summary.counts().errors()).isZero();
        assertThat(requestsOf(summary, "127.0.0.1:" + port)).isGreaterThanOrEqualTo(50);
        assertThat(requestsOf(summary, "127.0.0.2:" + port)).isGreaterThanOrEqualTo(40);
    }

    @Test
    void aNameServersAnswersAreFollowedWithinTheirTtl() throws Exception {
        Profile profile = Corpus.profile("01_tiny", 1);
        int port = startServers(profile, 3);
        try (LoopbackDns dns = LoopbackDns.start(NAME, List.of(loopback(1), loopback(2)));
                DnsTargetResolver resolver = DnsTargetResolver.using(dns.address())) {
            assertThat(resolver.resolve(NAME)).containsExactlyInAnyOrder(loopback(1), loopback(2));
            List<InetAddress> third = List.of(loopback(3));
            RunSummary summary =
                    EngineRun.runResolved(
                            named(profile, port),
                            new LoadConfig(1, 2, 15_000, 5_000, false, 1, 0),
                            resolver,
                            () -> {
                                if (servers.get(0).requestsServed() >= 30
                                        && servers.get(1).requestsServed() >= 30) {
                                    dns.answer(third);
                                }
                                return servers.get(2).requestsServed() >= 30;
                            });

            assertThat(summary.counts().errors()).isZero();
            for (int i = 1; i <= 3; i++) {
                assertThat(requestsOf(summary, "127.0.0." + i + ":" + port))
                        .as("127.0.0.%d", i)
                        .isGreaterThanOrEqualTo(20);
            }
            // The JDK's resolver would have kept the first answer for 30 seconds.
            assertThat(dns.queries()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void aNameWithTwoFamiliesIsSpreadOverThePreferredOneOnly() throws Exception {
        Profile profile = Corpus.profile("01_tiny", 1).withKeepAlive(true);
        int port = startServers(profile, 1);
        InetAddress ipv6Loopback = InetAddress.getByName("::1");
        RunSummary summary =
                EngineRun.runResolved(
                        named(profile, port),
                        new LoadConfig(1, 4, 5_000, 5_000, true, 1, 0),
                        host -> List.of(loopback(1), ipv6Loopback),
                        () -> servers.get(0).requestsServed() >= 100);

        assertThat(summary.counts().errors()).isZero();
        assertThat(summary.addresses())
                .extracting(AddressCount::address)
                .containsExactly("127.0.0.1:" + port);
    }

    @Test
    void aNameThatDoesNotResolveFailsBeforeAnythingRuns() throws Exception {
        Profile profile = Corpus.profile("01_tiny", 1);
        LoadEngine engine =
                new LoadEngine(
                        profile,
                        new LoadConfig(1, 1, 1_000, 1_000, false, 1, 0),
                        io.tcpload.runner.template.RequestTemplate.compile(
                                profile, io.tcpload.runner.template.RunnerSlice.SINGLE),
                        Transport.select("auto"));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                engine.run(
                                        NAME,
                                        1,
                                        host -> {
                                            throw new UnknownHostException(host);
                                        },
                                        ProgressListener.NONE,
                                        new RunControl(),
                                        StartGate.immediate()))
                .isInstanceOf(UnknownHostException.class)
                .hasMessageContaining(NAME);
    }
}
