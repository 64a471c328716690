package io.tcpload.runner.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.stats.RunSummary.AddressCount;
import java.util.List;
import org.junit.jupiter.api.Test;

class AddressCountsTest {
    @Test
    void countsMoveIntoTheTotalsByAddressNumberAndStartAgain() {
        AddressCounts loop = new AddressCounts();
        AddressCounts total = new AddressCounts();
        loop.addRequest(0);
        loop.addRequest(2);
        loop.addRequest(2);
        loop.addError(1);
        loop.moveTo(total);
        loop.addRequest(0);
        loop.moveTo(total);
        loop.moveTo(total);

        assertThat(total.named(List.of("a:1", "b:1", "c:1", "d:1")))
                .containsExactly(
                        new AddressCount("a:1", 2, 0),
                        new AddressCount("b:1", 0, 1),
                        new AddressCount("c:1", 2, 0),
                        new AddressCount("d:1", 0, 0));
        assertThat(loop.named(List.of("a:1"))).containsExactly(new AddressCount("a:1", 0, 0));
        // Numbers without a name are left out.
        assertThat(total.named(List.of("a:1"))).containsExactly(new AddressCount("a:1", 2, 0));
    }
}
