package io.tcpload.runner.stats;

/**
 * What was asked for, as the report's banner and the JSON result describe it.
 *
 * @param target {@code host:port}, or the URL in wrk mode
 * @param profileName the INI file name, or the URL in wrk mode
 * @param threads event loops
 * @param connections connections requested
 * @param durationMs the requested duration
 * @param timeoutMs connect and response timeout
 * @param keepAlive whether connections carry many requests
 * @param pipeline requests in flight per keep-alive connection
 * @param transport the Netty transport used: {@code io_uring}, {@code epoll} or {@code nio}
 */
public record RunInfo(
        String target,
        String profileName,
        int threads,
        int connections,
        long durationMs,
        long timeoutMs,
        boolean keepAlive,
        int pipeline,
        String transport) {}
