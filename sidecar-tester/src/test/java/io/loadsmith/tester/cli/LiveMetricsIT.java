package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.experiment.ServiceProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The live metrics with the real thing: Debian's {@code prometheus} (installed by .ci/install-tools) scrapes
 * the tester's {@code --metrics} endpoint and the agent's {@code /metrics} every second while {@code loadsmith
 * run} sends an open loop with stalls to the reference service (the real agent in a child JVM); then its HTTP
 * API must agree with the run's files: the tester's requests are results.json's {@code sent}, the stalls the
 * agent counted are the run's stall rows; {@code promtool check metrics} passes on both endpoints, and every
 * query of the Grafana dashboard, as Grafana would send it over the run, has an answer: the stall annotation and
 * bands mark every one of the run's windows. The stalls are freezes (the whole JVM stops), which the agent's
 * sleeper also sees as host pauses, so the host-pause annotation has something to mark too.
 */
class LiveMetricsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    /** Prometheus's scrape interval here, and the data source's "scrape interval" Grafana would be told. */
    private static final int SCRAPE_SECONDS = 1;
    /** The dashboard's step ($__interval): twice the scrape interval, a dashboard zoomed out a little. */
    private static final int STEP_SECONDS = 2 * SCRAPE_SECONDS;
    /** Grafana's $__rate_interval: max($__interval + scrape interval, 4 * scrape interval). */
    private static final int RATE_INTERVAL_SECONDS = Math.max(STEP_SECONDS + SCRAPE_SECONDS, 4 * SCRAPE_SECONDS);
    /**
     * The queries that may answer nothing over this run, each with why: the error rate of a run without errors
     * (the tester serves an outcome's series only once it has a request).
     */
    private static final Set<String> EMPTY_WITHOUT_ERRORS = Set.of("Errors per second, by outcome A");
    /** The queries that must mark every stall window of the run. */
    private static final Set<String> MARK_EVERY_WINDOW = Set.of("Stall windows", "Stall windows A", "Stall windows B",
            "Stall windows C");
    private static final Pattern PRINTED_METRICS = Pattern.compile("metrics: http://(\\S+)/metrics");
    private static final Pattern PROMETHEUS_LISTENING = Pattern.compile("msg=\"Listening on\" address=(\\S+)");

    @Test
    void prometheus_scrapes_the_tester_and_the_agent_and_agrees_with_the_run_files(@TempDir Path dir) throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        ServiceProcess.Jars jars = ServiceProcess.Jars.under(root);
        assertThat(jars.missing()).as("jars the test needs").isNull();
        Path out = dir.resolve("out");
        StringWriter console = new StringWriter();
        StringWriter errors = new StringWriter();
        try (ServiceProcess service = ServiceProcess.start(jars, 4, List.of(), dir.resolve("service.log"), 180)) {
            CommandLine cmd = Main.commandLine();
            cmd.setOut(new PrintWriter(console, true));
            cmd.setErr(new PrintWriter(errors, true));
            // port 0 everywhere: a port probed free beforehand can be taken by another process's connection
            // before it is bound; Prometheus starts once the run printed where its metrics are
            CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> cmd.execute("run",
                    root.resolve("examples/scenarios/score-with-stalls.yaml").toString(),
                    "--out", out.toString(), "--progress", "none", "--metrics", "127.0.0.1:0",
                    "--set", "metrics.linger=2s",
                    "--set", "target.url=" + service.url(), "--set", "stalls.admin=" + service.admin().base(),
                    "--set", "stalls.mean_interval=1s", "--set", "stalls.min_gap=300ms", "--set", "stalls.kind=freeze",
                    "--set", "load.rate=100", "--set", "load.duration=20s",
                    "--set", "load.warmup=100", "--set", "load.grace=1s"));
            String metrics = printedMetrics(console, errors, run);
            try (Prometheus prometheus = Prometheus.start(dir, List.of(metrics, service.admin().base().getAuthority()))) {
                // while the run lingers: its final figures, checked by Prometheus's own linter
                Path results = out.resolve("results.json");
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                        .until(() -> Files.exists(results) || run.isDone());
                assertThat(run.isDone() ? run.join() : ExitCodes.OK).as("a run that ended before lingering; errors: %s", errors)
                        .isEqualTo(ExitCodes.OK);
                String tester = get(URI.create("http://" + metrics + "/metrics"));
                String agent = get(service.admin().base().resolve("/metrics"));
                assertThat(run.get(60, TimeUnit.SECONDS)).as("exit; errors: %s", errors).isEqualTo(ExitCodes.OK);
                assertThat(promtool(dir, tester)).isEmpty();
                assertThat(promtool(dir, agent)).isEmpty();
                assertThat(tester).contains("loadsmith_tester_phase{phase=\"done\"");
                assertThat(console.toString()).contains("metrics: http://" + metrics + "/metrics");

                JsonNode runResult = JSON.readTree(results.toFile()).at("/runs/0");
                long sent = runResult.at("/counts/sent").asLong();
                int stallRows = runResult.get("stalls").size();
                assertThat(sent).isPositive();
                assertThat(stallRows).isPositive();
                // the last scrapes (during the linger, every second) saw the final counts
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                    assertThat(prometheus.value("sum(last_over_time(loadsmith_tester_requests_total[5m]))"))
                            .isEqualTo(sent);
                    assertThat(prometheus.value("last_over_time(loadsmith_stalls_total[5m])")).isEqualTo(stallRows);
                    assertThat(prometheus.value("last_over_time(loadsmith_tester_stalls_total[5m])")).isEqualTo(stallRows);
                });
                assertThat(prometheus.value("max_over_time(loadsmith_tester_phase{phase=\"counted\"}[5m])")).isEqualTo(1);
                assertThat(prometheus.value("sum(last_over_time(loadsmith_tester_corrected_latency_seconds_count[5m]))"))
                        .isEqualTo(runResult.at("/latency_ms/corrected/count").asLong());

                assertThat(run(null, "promtool", "check", "config", root.resolve("examples/grafana/prometheus.yml").toString()))
                        .startsWith("exit 0:").contains("SUCCESS");
                Set<String> scraped = prometheus.metricNames();
                GrafanaDashboard dashboard = GrafanaDashboard.read(root.resolve("examples/grafana/loadsmith.json"));
                assertThat(dashboard.queries()).isNotEmpty();
                for (GrafanaDashboard.Query query : dashboard.queries()) {
                    assertThat(query.metrics()).as("metrics named by %s", query).isNotEmpty();
                    assertThat(scraped).as("metrics Prometheus scraped, for %s", query).containsAll(query.metrics());
                }
                for (GrafanaDashboard.Query query : dashboard.of(GrafanaDashboard.Kind.ANNOTATION)) {
                    for (String metric : query.metrics()) {
                        assertThat(prometheus.type(metric)).as("type of %s, read by %s", metric, query)
                                .isEqualTo("counter");
                    }
                }
                answersOverTheRun(prometheus, dashboard, results);
            }
        }
    }

    /**
     * Every query of the dashboard, as Grafana would send it at {@link #STEP_SECONDS} over the run, answers; the
     * stall annotation and bands have a point above 0 at a step from each window's end to a scrape interval, a
     * step and a rate interval after it (the first scrape after the end sees the counter move, the first step
     * after that scrape counts it, and the ones after it for a rate interval).
     */
    private static void answersOverTheRun(Prometheus prometheus, GrafanaDashboard dashboard, Path results)
            throws Exception {
        JsonNode files = JSON.readTree(results.toFile());
        JsonNode runResult = files.at("/runs/0");
        long startEpochMillis = files.at("/start/epoch_ms").asLong();
        long startMonotonicNanos = files.at("/start/monotonic_ns").asLong();
        long fromSeconds = startEpochMillis / 1000 - RATE_INTERVAL_SECONDS;
        long toSeconds = System.currentTimeMillis() / 1000 + 1;
        String range = (toSeconds - fromSeconds) + "s";
        boolean errors = runResult.at("/counts/errors").asLong() > 0;
        List<Double> windowEndsSeconds = new ArrayList<>();
        for (JsonNode stall : runResult.get("stalls")) {
            windowEndsSeconds.add((startEpochMillis + (stall.get("end_ns").asLong() - startMonotonicNanos) / 1e6) / 1000);
        }
        assertThat(windowEndsSeconds).isNotEmpty();
        for (GrafanaDashboard.Query query : dashboard.queries()) {
            String key = query.name() + (query.refId() == null ? "" : " " + query.refId());
            String promql = query.promql(STEP_SECONDS + "s", RATE_INTERVAL_SECONDS + "s", range);
            JsonNode series = prometheus.range(promql, fromSeconds, toSeconds, STEP_SECONDS);
            if (EMPTY_WITHOUT_ERRORS.contains(key) && !errors) {
                assertThat(series).as("%s, sent as %s, in a run without errors", query, promql).isEmpty();
                continue;
            }
            assertThat(series).as("%s, sent as %s", query, promql).isNotEmpty();
            if (MARK_EVERY_WINDOW.contains(key)) {
                List<Double> marked = new ArrayList<>();
                for (JsonNode point : series.get(0).get("values")) {
                    if (Double.parseDouble(point.get(1).asText()) > 0) {
                        marked.add(point.get(0).asDouble());
                    }
                }
                for (double end : windowEndsSeconds) {
                    double last = end + SCRAPE_SECONDS + STEP_SECONDS + RATE_INTERVAL_SECONDS;
                    assertThat(marked).as("%s: steps marked, for the window that ended at %.3f", query, end)
                            .anyMatch(step -> step >= end && step <= last);
                }
            }
        }
    }

    /** The {@code HOST:PORT} of the run's metrics endpoint, from the line it prints once it listens. */
    private static String printedMetrics(StringWriter console, StringWriter errors, CompletableFuture<Integer> run) {
        Matcher[] printed = new Matcher[1];
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
            assertThat(run.isDone()).as("the run ended before it served metrics; errors: %s", errors).isFalse();
            printed[0] = PRINTED_METRICS.matcher(console.toString());
            return printed[0].find();
        });
        return printed[0].group(1);
    }

    /** What {@code promtool check metrics} says of {@code text} (empty: clean), its exit status included. */
    private static String promtool(Path dir, String text) throws Exception {
        Path input = Files.createTempFile(dir, "metrics", ".txt");
        Files.writeString(input, text);
        String said = run(input, "promtool", "check", "metrics");
        return said.equals("exit 0: ") ? "" : said;
    }

    /** {@code exit STATUS: OUTPUT} of a command, its standard input read from {@code input} (null: none). */
    private static String run(Path input, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (input != null) {
            builder.redirectInput(input.toFile());
        }
        Process process = builder.start();
        String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return "exit " + process.waitFor() + ": " + said.strip();
    }

    private static String get(URI uri) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as("GET %s", uri).isEqualTo(200);
        return answer.body();
    }

    /** Debian's prometheus with a temporary config and storage, scraping {@code targets} every second. */
    private record Prometheus(Process process, URI api) implements AutoCloseable {

        static Prometheus start(Path dir, List<String> targets) throws Exception {
            Path config = dir.resolve("prometheus.yml");
            StringBuilder jobs = new StringBuilder("global: {scrape_interval: " + SCRAPE_SECONDS
                    + "s, scrape_timeout: 1s}\nscrape_configs:\n");
            jobs.append("  - job_name: loadsmith-tester\n    static_configs: [{targets: ['").append(targets.get(0))
                    .append("']}]\n");
            jobs.append("  - job_name: loadsmith-agent\n    static_configs: [{targets: ['").append(targets.get(1))
                    .append("']}]\n");
            Files.writeString(config, jobs);
            Path log = dir.resolve("prometheus.log");
            Process process = new ProcessBuilder("prometheus", "--config.file=" + config,
                    "--storage.tsdb.path=" + dir.resolve("tsdb"), "--web.listen-address=127.0.0.1:0")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Prometheus prometheus = new Prometheus(process, URI.create("http://" + listeningAddress(process, log)));
            try {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                        .until(() -> {
                            assertThat(process.isAlive()).as("prometheus runs (see %s)", log).isTrue();
                            return HTTP.send(HttpRequest.newBuilder(prometheus.api.resolve("/-/ready")).build(),
                                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                        });
                // Prometheus starts a new target's scrape loop only at its next reload (every 5 s) and then
                // after an offset within the interval: wait for both, so that the run's counted phase is seen
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                        .until(() -> prometheus.value("count(up)") == targets.size());
            } catch (Exception | Error e) {
                prometheus.close();
                throw e;
            }
            return prometheus;
        }

        /** The address it listens on, from its log (port 0: the kernel's choice at bind time). */
        private static String listeningAddress(Process process, Path log) {
            Matcher[] listening = new Matcher[1];
            try {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                    assertThat(process.isAlive()).as("prometheus runs (see %s)", log).isTrue();
                    listening[0] = PROMETHEUS_LISTENING.matcher(Files.readString(log));
                    return listening[0].find();
                });
            } catch (RuntimeException | Error e) {
                process.destroyForcibly();
                throw e;
            }
            return listening[0].group(1);
        }

        /** The one value of an instant query, rounded to a whole number; -1 when it has no result. */
        long value(String query) throws Exception {
            JsonNode result = query(query);
            return result.isEmpty() ? -1 : Math.round(Double.parseDouble(result.get(0).at("/value/1").asText()));
        }

        /** The series of a range query from {@code fromSeconds} to {@code toSeconds} (epoch seconds). */
        JsonNode range(String query, long fromSeconds, long toSeconds, int stepSeconds) throws Exception {
            JsonNode answer = JSON.readTree(get(api.resolve("/api/v1/query_range?query="
                    + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&start=" + fromSeconds + "&end=" + toSeconds
                    + "&step=" + stepSeconds)));
            assertThat(answer.get("status").asText()).as("%s: %s", query, answer).isEqualTo("success");
            return answer.at("/data/result");
        }

        /**
         * The type Prometheus scraped for a metric ({@code counter}, {@code gauge}, ...): its metadata names a
         * counter served in OpenMetrics without {@code _total}.
         */
        String type(String metric) throws Exception {
            for (String name : List.of(metric, metric.replaceFirst("_total$", ""))) {
                JsonNode types = JSON.readTree(get(api.resolve("/api/v1/metadata?metric=" + name))).at("/data/" + name);
                if (!types.isMissingNode() && !types.isEmpty()) {
                    return types.get(0).get("type").asText();
                }
            }
            return "none";
        }

        JsonNode query(String query) throws Exception {
            JsonNode answer = JSON.readTree(get(api.resolve("/api/v1/query?query="
                    + URLEncoder.encode(query, StandardCharsets.UTF_8))));
            assertThat(answer.get("status").asText()).as("%s: %s", query, answer).isEqualTo("success");
            return answer.at("/data/result");
        }

        /** The names of every series it holds. */
        Set<String> metricNames() throws Exception {
            Set<String> names = new TreeSet<>();
            JSON.readTree(get(api.resolve("/api/v1/label/__name__/values"))).get("data")
                    .forEach(name -> names.add(name.asText()));
            return names;
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
