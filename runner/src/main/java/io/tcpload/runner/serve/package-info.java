/**
 * The demo target: {@code serve PROFILE.ini} answers any profile's requests with valid responses.
 *
 * <p>Pure parts, tested without sockets: {@link io.tcpload.runner.serve.RequestFramer} (where a raw
 * TCP request ends, from the request templates) and {@link io.tcpload.runner.serve.ResponseFactory}
 * (the success and failure responses, built once). The Netty parts only delegate to them: a decoder
 * per connection that emits one event per request, and a handler that writes a shared, pre-encoded
 * response for each, in order, now or after the configured delay.
 */
package io.tcpload.runner.serve;
