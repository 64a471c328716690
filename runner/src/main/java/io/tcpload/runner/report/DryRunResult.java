package io.tcpload.runner.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a dry run ({@code --test}) exchanged, machine-readable ({@code "format":
 * "tcpload-dryrun/v1"}), and its inverse: per request its name, verdict, the request's and the
 * response's bytes as hex, how the response was framed, the code found and any error.
 *
 * <p>Written within a bound ({@link #toJson(int)}): a runner pod hands it to the operator as its
 * termination message, which the kubelet cuts at {@link #TERMINATION_MESSAGE_BYTES}. What does not
 * fit is cut from the bytes first, every exchange's alike (a cut field is shorter than twice its
 * byte count), then whole exchanges from the end ({@code omitted}). Masked bytes (values of ENV
 * parameters, secret data files and values carried from responses) are {@code **} in the hex. Pure,
 * immutable, thread-safe.
 *
 * @param target the address connected to, {@code host:port}
 * @param requests how many requests the profile has, each sent once
 * @param successes how many responses were judged a success
 * @param masked what is masked in the bytes, such as {@code PIN (ENV)}, {@code CARD (FILE
 *     cards.txt)} or {@code SESSION (extracted)}; empty when nothing is
 * @param exchanges the requests in the order sent, those that fit
 * @param omitted the exchanges left out at the end to fit the bound
 */
public record DryRunResult(
        String target,
        int requests,
        int successes,
        List<String> masked,
        List<Exchange> exchanges,
        int omitted) {
    /** The value of the {@code format} field; a reader refuses anything else. */
    public static final String FORMAT = "tcpload-dryrun/v1";

    /** What the kubelet keeps of a container's termination message. */
    public static final int TERMINATION_MESSAGE_BYTES = 4096;

    /** A masked byte in the hex. */
    public static final String MASKED_BYTE = "**";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public DryRunResult {
        Objects.requireNonNull(target, "target");
        masked = List.copyOf(masked);
        exchanges = List.copyOf(exchanges);
    }

    /** Whether every request got a response judged a success. */
    public boolean passed() {
        return successes == requests;
    }

    /**
     * One request and its response.
     *
     * @param name the request's name ({@code request} for a profile of one request)
     * @param verdict {@code success} or {@code failure}
     * @param requestBytes the request's length in bytes; 0 when it could not be built
     * @param request its bytes as hex, two digits a byte ({@code **} masked), perhaps cut short
     * @param responseBytes the response's length in bytes; 0 when none came
     * @param response its bytes as hex, as {@code request}
     * @param framing how the response was read (head, length field, body), or null without one
     * @param code the code found in it, or null
     * @param error why there is no judged response (a timeout, a refused connect, a framing error,
     *     a request not built), or null
     * @param extracted the values the response handed the connection ({@code rsp_extract}), in the
     *     rules' order; empty when it carried none
     */
    public record Exchange(
            String name,
            String verdict,
            int requestBytes,
            String request,
            int responseBytes,
            String response,
            String framing,
            String code,
            String error,
            List<Value> extracted) {
        public Exchange {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(verdict, "verdict");
            request = request == null ? "" : request;
            response = response == null ? "" : response;
            extracted = extracted == null ? List.of() : List.copyOf(extracted);
        }

        /** Whether its bytes are shown whole, the values extracted too. */
        public boolean whole() {
            return request.length() == 2 * requestBytes
                    && response.length() == 2 * responseBytes
                    && extracted.stream()
                            .allMatch(value -> value.value().length() == 2 * value.bytes());
        }

        Exchange cut(int maxBytes) {
            return new Exchange(
                    name,
                    verdict,
                    requestBytes,
                    cutHex(request, maxBytes),
                    responseBytes,
                    cutHex(response, maxBytes),
                    framing,
                    code,
                    error,
                    extracted.stream()
                            .map(
                                    value ->
                                            new Value(
                                                    value.name(),
                                                    value.bytes(),
                                                    cutHex(value.value(), maxBytes)))
                            .toList());
        }

        private static String cutHex(String hex, int maxBytes) {
            return hex.length() <= 2L * maxBytes ? hex : hex.substring(0, 2 * maxBytes);
        }
    }

    /**
     * A value a response handed the connection, as later requests on it send it.
     *
     * @param name the variable, {@code $(NAME)} in the templates
     * @param bytes its length in bytes
     * @param value its bytes as hex, as an exchange's ({@code **} masked), perhaps cut short
     */
    public record Value(String name, int bytes, String value) {
        public Value {
            Objects.requireNonNull(name, "name");
            value = value == null ? "" : value;
        }
    }

    /** {@code data} as hex, two lowercase digits a byte, {@link #MASKED_BYTE} where masked. */
    public static String hex(byte[] data, boolean[] masked) {
        StringBuilder hex = new StringBuilder(data.length * 2);
        for (int i = 0; i < data.length; i++) {
            if (masked != null && i < masked.length && masked[i]) {
                hex.append(MASKED_BYTE);
            } else {
                hex.append(String.format(Locale.ROOT, "%02x", data[i] & 0xFF));
            }
        }
        return hex.toString();
    }

    /** The whole result as JSON, one line. */
    public String toJson() {
        return render(exchanges, omitted);
    }

    /**
     * The result as JSON of at most {@code maxBytes} bytes (UTF-8): the bytes of every exchange cut
     * to the longest that fits, and when even none fit, exchanges left out from the end.
     *
     * @throws IllegalArgumentException when not even the result without exchanges fits
     */
    public String toJson(int maxBytes) {
        String whole = toJson();
        if (size(whole) <= maxBytes) {
            return whole;
        }
        for (int kept = exchanges.size(); kept >= 0; kept--) {
            List<Exchange> some = exchanges.subList(0, kept);
            int left = omitted + exchanges.size() - kept;
            if (size(render(cut(some, 0), left)) > maxBytes) {
                continue;
            }
            // The longest cut that fits: more bytes never make the JSON shorter.
            int low = 0;
            int high = longest(some);
            while (low < high) {
                int middle = (low + high + 1) >>> 1;
                if (size(render(cut(some, middle), left)) <= maxBytes) {
                    low = middle;
                } else {
                    high = middle - 1;
                }
            }
            return render(cut(some, low), left);
        }
        throw new IllegalArgumentException(
                "a dry run's result does not fit " + maxBytes + " bytes even without exchanges");
    }

    private static List<Exchange> cut(List<Exchange> exchanges, int maxBytes) {
        return exchanges.stream().map(exchange -> exchange.cut(maxBytes)).toList();
    }

    private static int longest(List<Exchange> exchanges) {
        int longest = 0;
        for (Exchange exchange : exchanges) {
            longest =
                    Math.max(longest, Math.max(exchange.requestBytes(), exchange.responseBytes()));
            for (Value value : exchange.extracted()) {
                longest = Math.max(longest, value.bytes());
            }
        }
        return longest;
    }

    private static int size(String json) {
        return json.getBytes(StandardCharsets.UTF_8).length;
    }

    private String render(List<Exchange> shown, int left) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("target", target);
        root.put("requests", requests);
        root.put("successes", successes);
        if (!masked.isEmpty()) {
            ArrayNode what = root.putArray("masked");
            masked.forEach(what::add);
        }
        ArrayNode list = root.putArray("exchanges");
        for (Exchange exchange : shown) {
            ObjectNode node = list.addObject();
            node.put("name", exchange.name());
            node.put("verdict", exchange.verdict());
            node.put("requestBytes", exchange.requestBytes());
            node.put("request", exchange.request());
            node.put("responseBytes", exchange.responseBytes());
            node.put("response", exchange.response());
            putIfAny(node, "framing", exchange.framing());
            putIfAny(node, "code", exchange.code());
            putIfAny(node, "error", exchange.error());
            if (!exchange.extracted().isEmpty()) {
                ArrayNode values = node.putArray("extracted");
                for (Value value : exchange.extracted()) {
                    ObjectNode item = values.addObject();
                    item.put("name", value.name());
                    item.put("bytes", value.bytes());
                    item.put("value", value.value());
                }
            }
        }
        if (left > 0) {
            root.put("omitted", left);
        }
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a dry run's result", e);
        }
    }

    private static void putIfAny(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    /**
     * Reads a result written by {@link #toJson}.
     *
     * @throws IllegalArgumentException with a sentence when {@code json} is not one
     */
    public static DryRunResult read(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a dry run's result: not JSON");
        }
        if (root == null || !root.isObject() || !FORMAT.equals(root.path("format").asText())) {
            throw new IllegalArgumentException("not a dry run's result: no format " + FORMAT);
        }
        List<String> masked = new ArrayList<>();
        root.path("masked").forEach(node -> masked.add(node.asText()));
        List<Exchange> exchanges = new ArrayList<>();
        for (JsonNode node : root.path("exchanges")) {
            List<Value> extracted = new ArrayList<>();
            for (JsonNode value : node.path("extracted")) {
                extracted.add(
                        new Value(
                                value.path("name").asText(),
                                value.path("bytes").asInt(),
                                value.path("value").asText()));
            }
            exchanges.add(
                    new Exchange(
                            node.path("name").asText(),
                            node.path("verdict").asText(),
                            node.path("requestBytes").asInt(),
                            node.path("request").asText(),
                            node.path("responseBytes").asInt(),
                            node.path("response").asText(),
                            text(node, "framing"),
                            text(node, "code"),
                            text(node, "error"),
                            extracted));
        }
        return new DryRunResult(
                root.path("target").asText(),
                root.path("requests").asInt(),
                root.path("successes").asInt(),
                masked,
                exchanges,
                root.path("omitted").asInt(0));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
