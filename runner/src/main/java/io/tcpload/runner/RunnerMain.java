package io.tcpload.runner;

public final class RunnerMain {
    public static void main(String[] args) {
        System.out.println("tcpload");
    }
}
