package io.loadsmith.tester;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module's layers (docs/contracts.md, "Layers"): a source of {@code io.loadsmith.tester} names only types
 * of its own package or of a layer below its own, never one above it nor a neighbour in its own layer.
 */
class ArchitectureTest {

    static final Path ROOT = Path.of("src/main/java/io/loadsmith/tester");

    /**
     * From the top down. An entry is a package with its sub-packages; a type belongs to its longest entry. The
     * clients sit beside the engine (both run on a scheduler and speak through the transport seam, neither
     * names the other); the seam and the scheduling seam below both.
     */
    static final List<List<String>> LAYERS = List.of(
            List.of("cli"),
            List.of("session", "verify"),
            List.of("metrics"),
            List.of("experiment", "report"),
            List.of("agentclient", "scenario"),
            List.of("align", "profile", "simulate"),
            List.of("client"),
            List.of("client.jetty", "client.netty", "engine"),
            List.of("client.http1", "record", "result", "schedule"),
            List.of("grpc"),
            List.of("transport"),
            List.of("scheduler"));

    private static final Pattern TESTER_TYPE = Pattern.compile("io\\.loadsmith\\.tester\\.((?:[a-z][a-z0-9_]*\\.)+[A-Z]\\w*)");

    @Test
    void no_package_names_a_package_above_it_or_beside_it() throws IOException {
        List<String> offences = new ArrayList<>();
        int files = 0;
        try (Stream<Path> paths = Files.walk(ROOT)) {
            for (Path file : paths.filter(p -> p.toString().endsWith(".java")).toList()) {
                files++;
                String type = ROOT.relativize(file).toString().replace(".java", "").replace('\\', '.').replace('/', '.');
                offences.addAll(offences(type, Files.readString(file)));
            }
        }
        assertThat(files).isGreaterThan(80);
        assertThat(offences).isEmpty();
    }

    /** One noun per concept: a type's simple name (nested types too) names one thing in the module. */
    @Test
    void no_two_types_share_a_simple_name_and_none_is_named_like_a_test() throws IOException {
        java.util.Map<String, List<String>> declaredIn = new java.util.TreeMap<>();
        for (Path file : sources()) {
            for (String name : declaredTypes(Files.readString(file))) {
                declaredIn.computeIfAbsent(name, n -> new ArrayList<>()).add(ROOT.relativize(file).toString());
            }
        }
        assertThat(declaredIn).hasSizeGreaterThan(200);
        assertThat(declaredIn.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Object::toString))
                .as("simple names declared more than once").isEmpty();
        assertThat(declaredIn.keySet().stream().filter(n -> n.endsWith("Test"))).as("main types named like tests").isEmpty();
    }

    /** A long file is one with several jobs; the HTTP/1.1 parser is long by nature and reads in order. */
    @Test
    void no_source_is_over_600_lines_but_the_response_parser() throws IOException {
        List<String> long_ = new ArrayList<>();
        for (Path file : sources()) {
            long lines = Files.readAllLines(file).size();
            if (lines > 600 && !file.endsWith("ResponseParser.java")) {
                long_.add(ROOT.relativize(file) + ": " + lines + " lines");
            }
        }
        assertThat(long_).isEmpty();
    }

    @Test
    void the_declarations_seen_are_types_nested_or_not_outside_comments() {
        assertThat(declaredTypes("/** a record Ghost */ public final class Outer {\n"
                + "    private record Inner(int a) {}\n    enum Kind { A }\n    interface Step {}\n}"))
                .containsExactly("Outer", "Inner", "Kind", "Step");
    }

    /** The simple names of the types {@code source} declares, nested ones included, in order. */
    static List<String> declaredTypes(String source) {
        Matcher m = DECLARATION.matcher(withoutComments(source));
        List<String> names = new ArrayList<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static final Pattern DECLARATION = Pattern.compile("(?m)^\\s*(?:(?:public|protected|private|static|final|abstract|sealed|non-sealed)\\s+)*(?:class|record|enum|interface)\\s+([A-Z]\\w*)");

    private static List<Path> sources() throws IOException {
        try (Stream<Path> paths = Files.walk(ROOT)) {
            return paths.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    @Test
    void the_check_sees_an_import_from_above_and_from_beside_but_not_in_comments() {
        assertThat(offences("engine.Phase", "import io.loadsmith.tester.session.StalledRun;"))
                .containsExactly("engine.Phase names session.StalledRun (a layer above)");
        assertThat(offences("report.HtmlPage", "/** io.loadsmith.tester.cli.Main */ io.loadsmith.tester.experiment.Demo d;"))
                .containsExactly("report.HtmlPage names experiment.Demo (its own layer)");
        assertThat(offences("client.jetty.JettyTransport", "import io.loadsmith.tester.transport.Outcome;")).isEmpty();
        assertThat(offences("transport.Outcome", "import io.loadsmith.tester.client.Transports;"))
                .containsExactly("transport.Outcome names client.Transports (a layer above)");
        assertThat(offences("engine.LoadModel", "import io.loadsmith.tester.client.netty.NettyTransport;"))
                .containsExactly("engine.LoadModel names client.netty.NettyTransport (its own layer)");
        assertThat(offences("nothing.New", "")).containsExactly("nothing.New is in no layer: add its package to LAYERS");
    }

    /** What {@code source}, the source of {@code type} (relative to io.loadsmith.tester), names that it may not. */
    static List<String> offences(String type, String source) {
        int layer = layerOf(type);
        if (layer < 0) {
            return List.of(type + " is in no layer: add its package to LAYERS");
        }
        List<String> offences = new ArrayList<>();
        Matcher named = TESTER_TYPE.matcher(withoutComments(source));
        while (named.find()) {
            String other = named.group(1);
            int otherLayer = layerOf(other);
            if (otherLayer == layer && !entryOf(other).equals(entryOf(type))) {
                offences.add(type + " names " + other + " (its own layer)");
            } else if (otherLayer >= 0 && otherLayer < layer) {
                offences.add(type + " names " + other + " (a layer above)");
            }
        }
        return offences;
    }

    private static int layerOf(String type) {
        String entry = entryOf(type);
        for (int i = 0; i < LAYERS.size(); i++) {
            if (LAYERS.get(i).contains(entry)) {
                return i;
            }
        }
        return -1;
    }

    /** The longest layer entry that {@code type} is or lies under; "" when none. */
    private static String entryOf(String type) {
        String entry = "";
        for (List<String> layer : LAYERS) {
            for (String e : layer) {
                if ((type.equals(e) || type.startsWith(e + ".")) && e.length() > entry.length()) {
                    entry = e;
                }
            }
        }
        return entry;
    }

    static String withoutComments(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    }
}
