package io.tcpload.runner.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
    private static final List<String> KEYS = Section.RESPONSE.keys();

    @Test
    void suggestsTheNearestKeyForATypo() {
        assertThat(Suggestions.nearest("rsp_headln", KEYS)).contains("rsp_headlen");
        assertThat(Suggestions.nearest("RSP_CODE_TYPE", KEYS)).contains("rsp_code_type");
        assertThat(Suggestions.nearest("rsp_code_sucess", KEYS)).contains("rsp_code_success");
    }

    @Test
    void suggestsNothingForUnrelatedNames() {
        assertThat(Suggestions.nearest("colour", KEYS)).isEmpty();
        assertThat(Suggestions.nearest("x".repeat(10_000), KEYS)).isEmpty();
    }

    @Test
    void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertThat(Suggestions.editDistance("kitten", "sitting")).isEqualTo(3);
        assertThat(Suggestions.editDistance("", "abc")).isEqualTo(3);
        assertThat(Suggestions.editDistance("same", "same")).isZero();
    }
}
