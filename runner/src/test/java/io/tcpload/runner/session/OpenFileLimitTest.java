package io.tcpload.runner.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpenFileLimitTest {
    @Test
    void connectionsThatFitSayNothing() {
        assertThat(OpenFileLimit.warning(100, false, 1024)).isEmpty();
        assertThat(OpenFileLimit.warning(1024 - OpenFileLimit.RUNNER_OWN_FILES, false, 1024))
                .isEmpty();
    }

    @Test
    void tooManyConnectionsAreWarnedOfWithTheLimitAndHowToRaiseIt() {
        assertThat(OpenFileLimit.warning(2000, false, 500))
                .hasValueSatisfying(
                        warning ->
                                assertThat(warning)
                                        .contains("2000 connections", "limit of 500")
                                        .contains("connect errors", "ulimit -n 2128"));
    }

    @Test
    void theDemoTargetHoldsTheOtherEndOfEachConnection() {
        assertThat(OpenFileLimit.warning(500, false, 1024)).isEmpty();
        assertThat(OpenFileLimit.warning(500, true, 1024))
                .hasValueSatisfying(warning -> assertThat(warning).contains("about 1128"));
    }

    @Test
    void thisProcessesLimitIsRead() {
        assertThat(OpenFileLimit.current()).isPresent();
        assertThat(OpenFileLimit.current().getAsLong()).isPositive();
    }

    @Test
    void theSoftLimitIsTheFirstColumnOfLinuxsLine() {
        String limits =
                "Limit                     Soft Limit           Hard Limit           Units     \n"
                        + "Max cpu time              unlimited            unlimited            seconds   \n"
                        + "Max open files            1024                 524288               files     \n"
                        + "Max locked memory         8388608              8388608              bytes     \n";
        assertThat(OpenFileLimit.fromProcLimits(limits)).hasValue(1024);
        assertThat(
                        OpenFileLimit.fromProcLimits(
                                "Max open files            unlimited            unlimited            files\n"))
                .hasValue(Long.MAX_VALUE);
        assertThat(OpenFileLimit.fromProcLimits("Max cpu time  unlimited  unlimited  seconds\n"))
                .isEmpty();
        assertThat(OpenFileLimit.fromProcLimits("Max open files  many  many  files\n")).isEmpty();
    }

    @Test
    void linuxsAnswerIsTheOneTheJdkGives() {
        long fromJdk =
                ((com.sun.management.UnixOperatingSystemMXBean)
                                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                        .getMaxFileDescriptorCount();
        assertThat(OpenFileLimit.current()).hasValue(fromJdk);
    }
}
