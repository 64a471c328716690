package io.tcpload.runner.rate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The lead of an idle loop's timer, simulated with the wake-ups' lateness. */
class WakeLeadTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    @Test
    void beforeAnyWakeUpTheLeadIsHalfAMillisecond() {
        assertThat(new WakeLead().leadNs(50 * MS)).isEqualTo(500 * US);
    }

    @Test
    void theLeadFollowsHowLateTheLoopIsReady() {
        WakeLead lead = new WakeLead();
        for (int i = 0; i < 100; i++) {
            lead.record((i % 2 == 0 ? 120 : 180) * US);
        }
        // A mean of 150 µs, a deviation of 30 µs: four deviations above the mean.
        assertThat(lead.leadNs(50 * MS)).isBetween(250 * US, 300 * US);
    }

    @Test
    void aSteadyLatenessKeepsAMargin() {
        WakeLead lead = new WakeLead();
        for (int i = 0; i < 200; i++) {
            lead.record(150 * US);
        }
        assertThat(lead.leadNs(50 * MS)).isBetween(199 * US, 201 * US);
    }

    @Test
    void aBusyMachineWakesEarlierButNeverMoreThanTwoMillisecondsAhead() {
        WakeLead lead = new WakeLead();
        for (int i = 0; i < 100; i++) {
            lead.record((i % 3 == 0 ? 3 * MS : 400 * US));
        }
        assertThat(lead.leadNs(50 * MS)).isEqualTo(WakeLead.MAX_LEAD_NS);
    }

    @Test
    void aStallOfTheProcessIsForgottenWithinAFewSeconds() {
        WakeLead lead = new WakeLead();
        for (int i = 0; i < 20; i++) {
            lead.record(150 * US);
        }
        lead.record(350 * MS); // a collector's pause
        assertThat(lead.leadNs(50 * MS)).isEqualTo(WakeLead.MAX_LEAD_NS);
        // At -R 20, 40 sends are two seconds.
        for (int i = 0; i < 40; i++) {
            lead.record(150 * US);
        }
        assertThat(lead.leadNs(50 * MS)).isLessThan(300 * US);
    }

    @Test
    void theLeadIsAtMostA25thOfTheIdleTime() {
        WakeLead lead = new WakeLead();
        assertThat(lead.leadNs(10 * MS)).isEqualTo(400 * US);
        assertThat(lead.leadNs(2_500 * US)).isEqualTo(100 * US);
    }

    @Test
    void atHighRatesThereIsNoLead() {
        WakeLead lead = new WakeLead();
        // From 400 sends a second on a loop: a lead under 0.1 ms would not beat the wake-up.
        assertThat(lead.leadNs(2_499 * US)).isZero();
        assertThat(lead.leadNs(MS)).isZero();
        assertThat(lead.leadNs(0)).isZero();
        assertThat(lead.leadNs(-5 * US)).isZero();
    }

    @Test
    void aWakeUpBeforeItsInstantCountsAsOnTime() {
        WakeLead early = new WakeLead();
        WakeLead onTime = new WakeLead();
        for (int i = 0; i < 50; i++) {
            early.record(-400 * US);
            onTime.record(0);
        }
        assertThat(early.leadNs(50 * MS)).isEqualTo(onTime.leadNs(50 * MS));
    }
}
