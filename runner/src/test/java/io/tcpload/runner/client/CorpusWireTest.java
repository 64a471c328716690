package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Replays each captured wrktcp profile against a server that records what arrives on each
 * connection and answers with the captured responses in turn: the bytes must be wrktcp's, and the
 * responses must be judged as wrktcp judged them. Profiles in GBK and Latin-1, for which there are
 * no captures, must send the bytes of their templates as they are.
 */
class CorpusWireTest {
    @ParameterizedTest
    @ValueSource(strings = {"01_tiny", "02_xml_body", "05_json_code", "09_http"})
    void sendsWrktcpsBytesAndJudgesLikeIt(String name) throws Exception {
        List<byte[]> requests = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            requests.add(Corpus.bytes(name + ".req" + n + ".bin"));
        }
        List<byte[]> responses = new ArrayList<>();
        responses.add(Corpus.bytes(name + ".rsp1.bin"));
        if (name.equals("05_json_code")) {
            responses.add(Corpus.bytes(name + ".rsp2.bin"));
        }
        replay(port -> Corpus.profile(name, port), requests, responses);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gbk", "latin1"})
    void aProfileInAnotherEncodingSendsItsBytesAndJudgesItsCodes(String name) throws Exception {
        replay(
                port -> Corpus.encodedProfile(name, port),
                Corpus.encodedRequests(name),
                Corpus.encodedResponses(name));
    }

    @FunctionalInterface
    private interface ProfileAt {
        Profile at(int port) throws Exception;
    }

    /**
     * Runs the profile against a server that reads each connection's request and answers with the
     * responses in turn; one response means every request succeeds, two mean success and failure
     * alternate.
     */
    private static void replay(ProfileAt profileAt, List<byte[]> requests, List<byte[]> responses)
            throws Exception {
        Map<Integer, byte[]> received = new ConcurrentHashMap<>();
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            int expected = requests.get(Math.min(index, 2)).length;
                            received.put(index, in.readNBytes(expected));
                            out.write(responses.get(index % responses.size()));
                            out.flush();
                            // One request per connection: the client closes after the response.
                            assertThat(in.read()).isEqualTo(-1);
                        })) {
            Profile profile = profileAt.at(server.port());
            RunSummary summary =
                    EngineRun.run(
                            profile,
                            EngineRun.config(1, 1, 10_000, 5_000, false),
                            () -> received.size() >= 6);

            for (int n = 0; n < 3; n++) {
                assertThat(received.get(n))
                        .as("%s request %d", profile.displayName(), n + 1)
                        .isEqualTo(requests.get(n));
            }
            assertThat(server.failures()).isEmpty();
            assertThat(summary.counts().requests()).isGreaterThanOrEqualTo(5);
            assertThat(summary.counts().errors()).isZero();
            if (responses.size() == 2) {
                // Responses alternate success and failure, one per connection.
                assertThat(summary.counts().successes()).isPositive();
                assertThat(summary.counts().failures())
                        .isBetween(
                                summary.counts().successes() - 1, summary.counts().successes() + 1);
            } else {
                assertThat(summary.counts().failures()).isZero();
                assertThat(summary.counts().successes()).isEqualTo(summary.counts().requests());
            }
        }
    }
}
