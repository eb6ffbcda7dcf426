package io.loadsmith.stall.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 5,000 seeded hostile calls against the admin API, with an app beside it that must keep answering
 * (the 100,000-call campaign is stall-service/bench/fuzz.sh).
 */
@Timeout(120)
class AdminFuzzIT {

    private static final long SEED = 14;
    private static final int REQUESTS = 5_000;
    private static final int BATCH = 500;
    private static final int DEADLINE_MILLIS = 15_000;

    @Test
    void five_thousand_hostile_calls_get_no_5xx_no_hang_arm_nothing_invalid_and_leave_the_app_answering() throws Exception {
        try (FuzzTarget target = new FuzzTarget()) {
            AdminFuzzCampaign.Report report = new AdminFuzzCampaign(target.admin.address(), FuzzTarget.TOKEN, DEADLINE_MILLIS)
                    .run(SEED, REQUESTS, BATCH, target::appAnswers);

            assertThat(report.violations()).isEmpty();
            assertThat(report.counts().values().stream().flatMap(counts -> counts.values().stream()).mapToInt(Integer::intValue).sum())
                    .isEqualTo(REQUESTS);
            assertThat(report.counts().keySet()).containsExactly(AdminFuzz.Family.values());
            assertThat(target.controller.armed()).isFalse();
            assertThat(target.appAnswers()).isNull();
        }
    }

    @Test
    void the_generator_gives_the_same_cases_for_the_same_seed() {
        AdminFuzz first = new AdminFuzz(SEED, FuzzTarget.TOKEN);
        AdminFuzz second = new AdminFuzz(SEED, FuzzTarget.TOKEN);
        for (int i = 0; i < 1_000; i++) {
            assertThat(second.next().describe()).isEqualTo(first.next().describe());
        }
    }
}
