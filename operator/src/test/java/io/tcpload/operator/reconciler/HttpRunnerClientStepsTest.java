package io.tcpload.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tcpload.operator.status.StepInstruction;
import io.tcpload.runner.contract.RunnerProtocol;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator's side of a capacity search's control calls, against two loopback HTTP servers
 * standing for two runner pods (127.0.0.1 and 127.0.0.2 on one port): each step told to every
 * runner with the token, each step's result fetched, the end told, and refusals said by runner.
 */
class HttpRunnerClientStepsTest {
    private static final String TOKEN = "t0ken";

    /** What each runner answers, by host and path (query included); 404 when absent. */
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();

    private final List<String> heard = new CopyOnWriteArrayList<>();
    private HttpServer first;
    private HttpServer second;

    private record Answer(int status, String body) {}

    @BeforeEach
    void startRunners() throws IOException {
        first = server(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        second =
                server(
                        new InetSocketAddress(
                                InetAddress.getByName("127.0.0.2"), first.getAddress().getPort()));
    }

    private HttpServer server(InetSocketAddress address) throws IOException {
        HttpServer server = HttpServer.create(address, 0);
        server.createContext("/", this::answer);
        server.start();
        return server;
    }

    private void answer(HttpExchange exchange) throws IOException {
        String host = exchange.getLocalAddress().getAddress().getHostAddress();
        String path = exchange.getRequestURI().toString();
        heard.add(
                host
                        + " "
                        + exchange.getRequestMethod()
                        + " "
                        + path
                        + " "
                        + exchange.getRequestHeaders().getFirst("Authorization"));
        Answer answer = answers.getOrDefault(host + path, new Answer(404, "no\n"));
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @AfterEach
    void stopRunners() {
        first.stop(0);
        second.stop(0);
    }

    private HttpRunnerClient client() {
        return new HttpRunnerClient(first.getAddress().getPort());
    }

    private static final StepInstruction STEP =
            new StepInstruction(3, 1414.25, 500, 3_000, 1_767_261_600_000L);

    private static String stepPath() {
        return RunnerProtocol.step(3, 1414.25, 500, 3_000, 1_767_261_600_000L, 0);
    }

    @Test
    void aStepIsToldToEveryRunnerWithTheTokenTheWholeRateAndTheInstant() {
        answers.put("127.0.0.1" + stepPath(), new Answer(200, "step 3\n"));
        answers.put("127.0.0.2" + stepPath(), new Answer(200, "step 3\n"));

        client().step(List.of("127.0.0.1", "127.0.0.2"), STEP, TOKEN);

        assertThat(heard)
                .containsExactlyInAnyOrder(
                        "127.0.0.1 POST " + stepPath() + " Bearer " + TOKEN,
                        "127.0.0.2 POST " + stepPath() + " Bearer " + TOKEN);
        assertThat(stepPath())
                .isEqualTo(
                        "/step?number=3&rate=1414.25&warmupMs=500&durationMs=3000"
                                + "&at=1767261600000&offsetUs=0");
    }

    @Test
    void aRunnerThatRefusesAStepIsNamedWithWhatItSaid() {
        answers.put("127.0.0.1" + stepPath(), new Answer(200, "step 3\n"));
        answers.put(
                "127.0.0.2" + stepPath(),
                new Answer(409, "step 3 is not the next: the last taken is step 1\n"));

        assertThatThrownBy(() -> client().step(List.of("127.0.0.1", "127.0.0.2"), STEP, TOKEN))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "runner 127.0.0.2 answered 409 to step 3: step 3 is not the next: the last"
                                + " taken is step 1");

        answers.put("127.0.0.2" + stepPath(), new Answer(401, ""));
        assertThatThrownBy(() -> client().step(List.of("127.0.0.1", "127.0.0.2"), STEP, TOKEN))
                .hasMessageStartingWith(
                        "runner 127.0.0.2 refused this operator's token (401) for step 3");
    }

    @Test
    void aRunnerThatCannotBeReachedForAStepIsNamed() {
        second.stop(0);

        assertThatThrownBy(() -> client().step(List.of("127.0.0.2"), STEP, TOKEN))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("cannot tell runner 127.0.0.2 step 3: ");
    }

    @Test
    void aStepsResultIsFetchedOnceItHasRunToItsEnd() {
        String path = RunnerProtocol.stepResult(3);
        answers.put("127.0.0.1" + path, new Answer(409, "step 3 has not run to its end yet\n"));

        assertThat(client().stepResult("127.0.0.1", 3, TOKEN)).isEmpty();

        answers.put("127.0.0.1" + path, new Answer(200, "{\"result\":1}"));
        assertThat(client().stepResult("127.0.0.1", 3, TOKEN)).contains("{\"result\":1}");
        assertThat(heard).last().isEqualTo("127.0.0.1 GET /step-result?number=3 Bearer " + TOKEN);

        second.stop(0);
        assertThat(client().stepResult("127.0.0.2", 3, TOKEN)).as("unreachable").isEmpty();
    }

    @Test
    void theEndIsToldToEveryRunnerAndARunnerGoneIsNoError() {
        answers.put("127.0.0.1" + RunnerProtocol.stepEnd(), new Answer(200, "the search ends\n"));
        second.stop(0);

        client().endSteps(List.of("127.0.0.1", "127.0.0.2"), TOKEN);

        assertThat(heard).containsExactly("127.0.0.1 POST /step?end=true Bearer " + TOKEN);
    }
}
