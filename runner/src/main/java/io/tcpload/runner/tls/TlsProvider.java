package io.tcpload.runner.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.util.Locale;

/**
 * Which TLS implementation the handshakes run on: BoringSSL through netty-tcnative where its native
 * library loads (the default: it does more handshakes per CPU-second, see the benchmarks), else the
 * JDK's own.
 */
public enum TlsProvider {
    AUTO,
    OPENSSL,
    JDK;

    /** The provider named, case-insensitively. */
    public static TlsProvider named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "openssl" -> OPENSSL;
            case "jdk" -> JDK;
            default -> throw new IllegalArgumentException("unknown TLS provider '" + name + "'");
        };
    }

    /**
     * Netty's provider for this choice.
     *
     * @throws TlsSetupException when OpenSSL is asked for and its native library does not load
     */
    SslProvider netty() throws TlsSetupException {
        return switch (this) {
            case AUTO -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
            case JDK -> SslProvider.JDK;
            case OPENSSL -> {
                if (!OpenSsl.isAvailable()) {
                    Throwable cause = OpenSsl.unavailabilityCause();
                    throw new TlsSetupException(
                            "--tls-provider openssl: BoringSSL's native library does not load on"
                                    + " this machine ("
                                    + (cause == null ? "unknown reason" : cause.getMessage())
                                    + "); use --tls-provider jdk");
                }
                yield SslProvider.OPENSSL;
            }
        };
    }

    /** How the report names the provider of a run. */
    static String describe(SslProvider provider) {
        return provider == SslProvider.JDK ? "jdk" : "openssl";
    }
}
