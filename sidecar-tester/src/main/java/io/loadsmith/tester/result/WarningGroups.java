package io.loadsmith.tester.result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The warnings of many runs, one line per distinct warning: warnings that differ only in their numbers are one
 * line, each varying number shown as its range over the runs ({@code 496–512 requests waited ...}). Each line
 * names the runs it applies to ({@code closed-1, closed-16 (all 20 runs)}); the tester-side warnings (the
 * tester sent late or was the bottleneck, requests waited or were dropped, the run started on a busy box) come
 * first, the rest in the order they first occur.
 *
 * <pre>{@code
 * for (WarningGroups.Group g : WarningGroups.of(results.runs(), results.experiment().arms())) {
 *     out.println(g.appliesTo() + ": " + g.text());
 * }
 * }</pre>
 */
public final class WarningGroups {

    /** More runs than this named one by one are cut to "... and N more". */
    static final int RUNS_NAMED = 6;

    private static final Pattern NUMBER = Pattern.compile("\\d[\\d,]*(?:\\.\\d+)?");
    private static final List<String> TESTER_SIDE = List.of("the tester itself sent late", "tester was the bottleneck",
            "requests waited", "requests were dropped", "started on a busy box", "pauses of the tester itself");

    private WarningGroups() {
    }

    /**
     * One distinct warning.
     *
     * @param text       the warning, each number that differs between the runs replaced by its range
     * @param testerSide whether the tester (or the box it ran on), not the service, is what the warning is about
     * @param runs       the names of the runs that carry it, in the order of the results
     * @param appliesTo  those runs in a few words: whole arms by name, other runs by name, and the count
     */
    public record Group(String text, boolean testerSide, List<String> runs, String appliesTo) {

        public Group {
            runs = List.copyOf(runs);
        }
    }

    /**
     * Groups the warnings of {@code runs}.
     *
     * @param arms the experiment's arms (runs are matched to them by {@link Experiment#armOf}); empty for none
     */
    public static List<Group> of(List<RunResult> runs, List<String> arms) {
        Map<String, List<RunResult>> byShape = new LinkedHashMap<>();
        Map<String, List<String>> texts = new LinkedHashMap<>();
        for (RunResult run : runs) {
            for (String warning : run.warnings()) {
                String shape = NUMBER.matcher(warning).replaceAll("#");
                List<RunResult> carriers = byShape.computeIfAbsent(shape, k -> new ArrayList<>());
                if (!carriers.contains(run)) {
                    carriers.add(run);
                }
                texts.computeIfAbsent(shape, k -> new ArrayList<>()).add(warning);
            }
        }
        List<Group> testerSide = new ArrayList<>();
        List<Group> others = new ArrayList<>();
        for (Map.Entry<String, List<RunResult>> e : byShape.entrySet()) {
            String text = merged(texts.get(e.getKey()));
            boolean tester = isTesterSide(text);
            (tester ? testerSide : others).add(new Group(text, tester, e.getValue().stream().map(RunResult::name).toList(),
                    appliesTo(e.getValue(), runs, arms)));
        }
        testerSide.addAll(others);
        return testerSide;
    }

    /** Whether a warning is about the tester or its box rather than the service. */
    public static boolean isTesterSide(String warning) {
        return TESTER_SIDE.stream().anyMatch(warning::contains);
    }

    /** Texts of one shape as one: each number that differs between them becomes "lowest–highest". */
    static String merged(List<String> texts) {
        String first = texts.get(0);
        List<List<String>> numbers = new ArrayList<>();
        for (String text : texts) {
            List<String> found = new ArrayList<>();
            Matcher m = NUMBER.matcher(text);
            while (m.find()) {
                found.add(m.group());
            }
            numbers.add(found);
        }
        StringBuilder out = new StringBuilder();
        Matcher m = NUMBER.matcher(first);
        int position = 0;
        int index = 0;
        while (m.find()) {
            out.append(first, position, m.start());
            String lowest = m.group();
            String highest = m.group();
            for (List<String> found : numbers) {
                String n = found.get(index);
                lowest = value(n) < value(lowest) ? n : lowest;
                highest = value(n) > value(highest) ? n : highest;
            }
            out.append(value(lowest) == value(highest) ? lowest : lowest + "\u2013" + highest);
            position = m.end();
            index++;
        }
        return out.append(first.substring(position)).toString();
    }

    private static double value(String number) {
        return Double.parseDouble(number.replace(",", ""));
    }

    /**
     * The runs of a group in a few words: {@code all 40 runs} when every run has it; else the arms (or an arm
     * in one stall state, {@code paced-8/stall}) all of whose runs have it, then the other runs by name, then
     * the count: {@code closed-1, closed-16 (all 20 runs)}, {@code paced-8 (all 10), open r1 stall (11 runs)},
     * {@code open r1 stall} for a single run.
     */
    static String appliesTo(List<RunResult> carriers, List<RunResult> all, List<String> arms) {
        int n = carriers.size();
        if (n == all.size() && n > 1) {
            return "all " + n + " runs";
        }
        Map<String, Integer> whole = new LinkedHashMap<>();
        List<RunResult> rest = new ArrayList<>(carriers);
        for (String arm : arms) {
            List<RunResult> ofArm = ofArm(all, arms, arm, null);
            if (!ofArm.isEmpty() && carriers.containsAll(ofArm)) {
                whole.put(arm, ofArm.size());
                rest.removeAll(ofArm);
                continue;
            }
            for (boolean stall : List.of(true, false)) {
                List<RunResult> ofState = ofArm(all, arms, arm, stall);
                if (ofState.size() > 1 && carriers.containsAll(ofState)) {
                    whole.put(arm + (stall ? "/stall" : "/no-stall"), ofState.size());
                    rest.removeAll(ofState);
                }
            }
        }
        List<String> parts = new ArrayList<>();
        whole.forEach((unit, size) -> parts.add(rest.isEmpty() ? unit : unit + " (all " + size + ")"));
        for (int i = 0; i < rest.size(); i++) {
            if (i == RUNS_NAMED && rest.size() > RUNS_NAMED + 1) {
                parts.add("and " + (rest.size() - RUNS_NAMED) + " more");
                break;
            }
            parts.add(rest.get(i).name());
        }
        String named = String.join(", ", parts);
        if (n == 1) {
            return named;
        }
        return named + (rest.isEmpty() ? " (all " + n + " runs)" : " (" + n + " runs)");
    }

    private static List<RunResult> ofArm(List<RunResult> all, List<String> arms, String arm, Boolean stall) {
        int index = arms.indexOf(arm);
        return all.stream().filter(r -> Experiment.armOf(r, arms) == index && (stall == null || r.stall() == stall))
                .toList();
    }
}
