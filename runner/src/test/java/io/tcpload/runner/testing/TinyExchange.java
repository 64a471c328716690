package io.tcpload.runner.testing;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileException;
import java.nio.charset.StandardCharsets;

/**
 * The smallest length-prefixed exchange, for tests that script a server of their own: an 8-digit
 * length and the body "this is a test", answered by an 8-digit length and a body whose code is
 * {@code 000000} (success) followed by "SUCCESS".
 */
public final class TinyExchange {
    /** The request's bytes on the wire. */
    public static final byte[] REQUEST =
            "00000014this is a test".getBytes(StandardCharsets.US_ASCII);

    /** A successful response's bytes on the wire. */
    public static final byte[] RESPONSE =
            "00000013000000SUCCESS".getBytes(StandardCharsets.US_ASCII);

    private TinyExchange() {}

    /** The profile that sends {@link #REQUEST} to 127.0.0.1 at {@code port}. */
    public static Profile profile(int port, boolean keepAlive) throws ProfileException {
        return Corpus.parse(
                        "[common]\nhost = 127.0.0.1\nport = "
                                + port
                                + "\n[request]\nreq_body = this is a test\n")
                .withKeepAlive(keepAlive);
    }

    /**
     * A server's script that answers every request with {@link #RESPONSE}, at once, until the
     * client closes the connection (which bounds it: the run's end closes them all).
     */
    public static ScriptedServer.Script answersEach() {
        return (index, in, out) -> {
            while (in.readNBytes(REQUEST.length).length == REQUEST.length) {
                out.write(RESPONSE);
                out.flush();
            }
        };
    }
}
