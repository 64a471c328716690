package io.tcpload.operator;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * What the {@code tcpload} launcher runs after a build to learn which classes a run loads, before
 * it archives them (a static class-data archive that every later start maps instead of reading the
 * classes from the jar). It runs the command as its main does, twice in one JVM, so that one list
 * of classes covers both runs: a second-long local run of the TcpLoadTest given, and a second-long
 * runner run over HTTP; both on the demo target, their output discarded.
 *
 * <p>Exit status 0 when both ran whole (1 counts as whole: a threshold missed on a busy machine), 2
 * otherwise.
 */
public final class ArchiveTraining {
    private ArchiveTraining() {}

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ArchiveTraining TEST.yaml");
            System.exit(2);
        }
        TcpLoadMain.configureProcess();
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        int local =
                TcpLoadMain.executeAsProcess(
                        discard, discard, "run", "-f", args[0], "--demo-target", "-d", "1s");
        int runner =
                TcpLoadMain.executeAsProcess(
                        discard,
                        discard,
                        "runner",
                        "--demo-target",
                        "-k",
                        "-t1",
                        "-c10",
                        "-d1s",
                        "http://tcpload-demo:8080/index.html");
        System.exit(local <= 1 && runner <= 1 ? 0 : 2);
    }
}
