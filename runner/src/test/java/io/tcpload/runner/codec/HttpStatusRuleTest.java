package io.tcpload.runner.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HttpStatusRuleTest {

    @Test
    void emptyListAcceptsEveryStatus() {
        HttpStatusRule any = new HttpStatusRule(List.of());
        assertThat(any.accepts(100)).isTrue();
        assertThat(any.accepts(200)).isTrue();
        assertThat(any.accepts(599)).isTrue();
    }

    @Test
    void patternsMatchDigitByDigit() {
        HttpStatusRule rule = new HttpStatusRule(List.of("2xx", "304", "4X1"));
        assertThat(rule.accepts(200)).isTrue();
        assertThat(rule.accepts(299)).isTrue();
        assertThat(rule.accepts(304)).isTrue();
        assertThat(rule.accepts(401)).isTrue();
        assertThat(rule.accepts(491)).isTrue();
        assertThat(rule.accepts(300)).isFalse();
        assertThat(rule.accepts(400)).isFalse();
        assertThat(rule.accepts(500)).isFalse();
        assertThat(rule.accepts(1000)).isFalse();
        assertThat(rule.accepts(-1)).isFalse();
    }

    @Test
    void rejectsMalformedPatterns() {
        assertThatThrownBy(() -> new HttpStatusRule(List.of("2x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("HTTP status pattern '2x' is not three digits or x");
        assertThatThrownBy(() -> new HttpStatusRule(List.of("20?")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
