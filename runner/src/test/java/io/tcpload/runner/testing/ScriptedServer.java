package io.tcpload.runner.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test target on 127.0.0.1, port 0, that treats every accepted connection with a script: a
 * function of the connection's number and its streams. Misbehaving servers (silent, closing early,
 * dripping bytes, lying about lengths) are scripts. One thread per connection, bounded by the
 * tests' small connection counts; {@link #close} stops everything.
 */
public final class ScriptedServer implements AutoCloseable {

    /** What to do with one connection; {@code index} counts connections from 0. */
    @FunctionalInterface
    public interface Script {
        void handle(int index, InputStream in, OutputStream out) throws Exception;
    }

    private final ServerSocket server;
    private final Script script;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    public ScriptedServer(Script script) throws IOException {
        this.server = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        this.script = script;
        this.acceptor = new Thread(this::acceptLoop, "scripted-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public int accepted() {
        return accepted.get();
    }

    /** Errors thrown by scripts other than the peer going away. */
    public List<Throwable> failures() {
        return new ArrayList<>(failures);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return;
            }
            sockets.add(socket);
            int index = accepted.getAndIncrement();
            Thread worker = new Thread(() -> serve(index, socket), "scripted-server-" + index);
            worker.setDaemon(true);
            threads.add(worker);
            worker.start();
        }
    }

    private void serve(int index, Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            script.handle(index, socket.getInputStream(), socket.getOutputStream());
        } catch (SocketException e) {
            // The client closed or reset the connection: normal at the end of a run.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception | AssertionError e) {
            if (!server.isClosed()) {
                failures.add(e);
            }
        }
    }

    /** Reads exactly {@code n} bytes, or fewer if the peer closes first. */
    public static byte[] readUpTo(InputStream in, int n) throws IOException {
        return in.readNBytes(n);
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing is best effort; the threads end when their socket does.
            }
        }
        for (Thread thread : threads) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
