package io.loadsmith.stall.admin;

import java.util.Map;
import java.util.TreeSet;

/**
 * The fuzz campaign as a bench (stall-service/bench/fuzz.sh): {@code AdminFuzzBench [REQUESTS [SEED]]}
 * (100,000 and 14 by default) against a {@link FuzzTarget} in this JVM. Prints a Markdown table of the
 * answers by family and status, the slowest answer, and every violation; exits 1 if there was one.
 */
public final class AdminFuzzBench {

    private static final int BATCH = 1_000;
    private static final int DEADLINE_MILLIS = 15_000;

    private AdminFuzzBench() {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 14;
        AdminFuzzCampaign.Report report;
        long startNanos = System.nanoTime();
        try (FuzzTarget target = new FuzzTarget()) {
            int[] batches = {0};
            report = new AdminFuzzCampaign(target.admin.address(), FuzzTarget.TOKEN, DEADLINE_MILLIS).run(seed, requests, BATCH, () -> {
                if (++batches[0] % 10 == 0) {
                    System.err.printf("# %d requests%n", batches[0] * BATCH);
                }
                return target.appAnswers();
            });
            if (target.controller.armed()) {
                report.violations().add("armed at the end of the campaign");
            }
        }
        System.out.print(table(report));
        System.out.printf("%nrequests: %d, seed %d; plans armed by calls valid by the API's rules (each disarmed at once): %d%n",
                report.requests(), seed, report.armedByValidCalls());
        System.out.printf("slowest answer: %.1f ms (%s)%n", report.slowestNanos() / 1e6, report.slowestCase());
        System.out.printf("campaign: %.0f s; violations: %d%n", (System.nanoTime() - startNanos) / 1e9, report.violations().size());
        report.violations().stream().limit(50).forEach(violation -> System.out.println("VIOLATION " + violation));
        System.exit(report.violations().isEmpty() ? 0 : 1);
    }

    /** A Markdown table: one row per family, one column per outcome, with totals. */
    static String table(AdminFuzzCampaign.Report report) {
        TreeSet<String> outcomes = new TreeSet<>();
        report.counts().values().forEach(counts -> outcomes.addAll(counts.keySet()));
        StringBuilder out = new StringBuilder("| family |");
        outcomes.forEach(outcome -> out.append(' ').append(outcome).append(" |"));
        out.append(" total |\n| --- |");
        outcomes.forEach(outcome -> out.append(" ---: |"));
        out.append(" ---: |\n");
        Map<String, Integer> totals = new java.util.TreeMap<>();
        for (Map.Entry<AdminFuzz.Family, Map<String, Integer>> family : report.counts().entrySet()) {
            out.append("| ").append(family.getKey().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')).append(" |");
            int sum = 0;
            for (String outcome : outcomes) {
                int count = family.getValue().getOrDefault(outcome, 0);
                out.append(' ').append(count).append(" |");
                totals.merge(outcome, count, Integer::sum);
                sum += count;
            }
            out.append(' ').append(sum).append(" |\n");
        }
        out.append("| **all** |");
        outcomes.forEach(outcome -> out.append(" **").append(totals.get(outcome)).append("** |"));
        out.append(" **").append(totals.values().stream().mapToInt(Integer::intValue).sum()).append("** |\n");
        return out.toString();
    }
}
