package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Help;

/**
 * The help of every command and subcommand ({@code loadsmith --help}, {@code loadsmith run --help}, ...), rendered
 * at a narrow and a wide width: every command is listed with one whole short sentence, and no description, option
 * or footer breaks a sentence at a newline of its own (one that the width did not force).
 */
class HelpTextTest {

    /** picocli's narrowest usage width. */
    private static final int NARROW = 55;
    private static final int WIDE = 200;
    /** The longest summary: one line beside the command column of an 80-column terminal. */
    private static final int SUMMARY_MAX_CHARS = 64;
    /** The end of a sentence: its stop, perhaps closed by a bracket or a quote. */
    private static final Pattern SENTENCE_END = Pattern.compile(".*[.!?:][)\"']?");
    /** A second sentence inside a summary. */
    private static final Pattern SECOND_SENTENCE = Pattern.compile("[.!?]\\s+[A-Z]");
    /** A footer line that is an example command, not prose. */
    private static final Pattern EXAMPLE = Pattern.compile("\\s*(loadsmith|source) .*");

    @Test
    void every_command_wraps_its_help_at_the_terminal_width() {
        for (CommandLine command : commands(Main.commandLine())) {
            assertThat(command.getCommandSpec().usageMessage().autoWidth()).as(command.getCommandSpec().qualifiedName())
                    .isTrue();
        }
    }

    @Test
    void the_walk_reaches_every_command_and_subcommand() {
        assertThat(commands(Main.commandLine()).stream().map(c -> c.getCommandSpec().qualifiedName()).toList())
                .containsExactlyInAnyOrder("loadsmith", "loadsmith demo", "loadsmith run", "loadsmith experiment",
                        "loadsmith report", "loadsmith arm", "loadsmith disarm", "loadsmith merge", "loadsmith stalls",
                        "loadsmith clock", "loadsmith pauses", "loadsmith pauses from-gc-log", "loadsmith pauses record",
                        "loadsmith completion", "loadsmith help", "loadsmith verify");
    }

    @ParameterizedTest
    @ValueSource(ints = {NARROW, WIDE})
    void every_command_in_a_command_list_is_summed_up_by_one_whole_short_sentence(int width) {
        for (CommandLine command : commands(at(width))) {
            if (command.getSubcommands().isEmpty()) {
                continue;
            }
            Map<String, String> summaries = summaries(command.getHelp().commandList());
            assertThat(summaries.keySet()).as("commands listed by %s", command.getCommandName())
                    .containsExactlyInAnyOrderElementsOf(command.getSubcommands().keySet());
            summaries.forEach((name, summary) -> {
                String what = command.getCommandSpec().qualifiedName() + " --help at " + width + " columns, " + name;
                assertThat(summary).as(what).matches(SENTENCE_END).hasSizeLessThanOrEqualTo(SUMMARY_MAX_CHARS);
                assertThat(SECOND_SENTENCE.matcher(summary).find()).as("%s: one sentence: %s", what, summary).isFalse();
            });
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {NARROW, WIDE})
    void no_help_text_breaks_a_sentence_where_the_width_did_not(int width) {
        List<String> cuts = new ArrayList<>();
        for (CommandLine command : commands(at(width))) {
            Help help = command.getHelp();
            String name = command.getCommandSpec().qualifiedName();
            cuts.addAll(cuts(name + " description", help.description(), width));
            cuts.addAll(cuts(name + " parameters", help.parameterList(), width));
            cuts.addAll(cuts(name + " options", help.optionList(), width));
            cuts.addAll(cuts(name + " footer", help.footer(), width));
        }
        assertThat(cuts).as("lines that end mid-sentence though the next line's first word would have fit").isEmpty();
    }

    /** The check itself, on text a command could print: a cut is found, a wrap and a new sentence are not. */
    @Test
    void a_sentence_cut_by_a_newline_is_told_from_one_wrapped_by_the_width() {
        String cut = "  merge   Merge the shards into one, as if\n          one tester had sent it all.\n";
        String wrapped = "Merge the shards into one, as if one\ntester had sent it all.\n";
        String twoSentences = "Merge the shards.\nthen report them.\n";
        String example = "  loadsmith run a.yaml\n  loadsmith run b.yaml\n";

        assertThat(cuts("cut", cut, 60)).containsExactly("cut: [  merge   Merge the shards into one, as if] "
                + "[          one tester had sent it all.]");
        assertThat(cuts("wrapped", wrapped, 40)).isEmpty();
        assertThat(cuts("two sentences", twoSentences, 60)).isEmpty();
        assertThat(cuts("example", example, 60)).isEmpty();
        assertThat(summaries("  demo   Stall the service, run a closed,\n"
                + "           a paced and an open tester.\n  run    Run one scenario.\n"))
                .containsExactly(Map.entry("demo", "Stall the service, run a closed, a paced and an open tester."),
                        Map.entry("run", "Run one scenario."));
    }

    /** A fresh command line whose help renders at {@code width} columns, whatever the terminal. */
    private static CommandLine at(int width) {
        CommandLine root = Main.commandLine();
        for (CommandLine command : commands(root)) {
            command.getCommandSpec().usageMessage().autoWidth(false).width(width);
        }
        return root;
    }

    /** {@code root} and every command under it, each once (a subcommand's aliases name it again). */
    private static List<CommandLine> commands(CommandLine root) {
        Set<CommandLine> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<CommandLine> all = new ArrayList<>();
        collect(root, seen, all);
        return all;
    }

    private static void collect(CommandLine command, Set<CommandLine> seen, List<CommandLine> all) {
        if (seen.add(command)) {
            all.add(command);
            command.getSubcommands().values().forEach(sub -> collect(sub, seen, all));
        }
    }

    /**
     * Each command of a rendered command list and its summary, the lines it wraps over joined: an entry starts
     * with its name at the list's indent, its wrapped lines are indented further.
     */
    private static Map<String, String> summaries(String commandList) {
        Map<String, String> summaries = new LinkedHashMap<>();
        String name = null;
        for (String line : commandList.split("\\R")) {
            if (line.isBlank()) {
                continue;
            }
            if (!line.startsWith("   ")) {
                String[] entry = line.strip().split("\\s+", 2);
                name = entry[0];
                summaries.put(name, entry.length > 1 ? entry[1] : "");
            } else {
                summaries.merge(name, line.strip(), (before, more) -> before + " " + more);
            }
        }
        return summaries;
    }

    /**
     * The pairs of lines of {@code text}, rendered {@code width} wide, where the first ends mid-sentence, the next
     * goes on in lowercase and its first word would have fit on the first: a newline the width did not force.
     */
    private static List<String> cuts(String where, String text, int width) {
        List<String> cuts = new ArrayList<>();
        String[] lines = text.split("\\R");
        for (int i = 0; i + 1 < lines.length; i++) {
            String line = lines[i].stripTrailing();
            String next = lines[i + 1].strip();
            if (line.isBlank() || next.isEmpty() || EXAMPLE.matcher(line).matches() || EXAMPLE.matcher(next).matches()
                    || !Character.isLowerCase(next.charAt(0)) || SENTENCE_END.matcher(line).matches()) {
                continue;
            }
            String firstWord = next.split("\\s+", 2)[0];
            if (line.length() + 1 + firstWord.length() < width) {
                cuts.add(where + ": [" + line + "] [" + lines[i + 1].stripTrailing() + "]");
            }
        }
        return cuts;
    }
}
