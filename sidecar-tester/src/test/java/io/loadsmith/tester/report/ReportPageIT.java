package io.loadsmith.tester.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Opens report.html in a real headless Chromium (named explicitly, so Selenium Manager never
 * downloads anything), checks that every chart was drawn and that the console stayed clean, and
 * keeps a screenshot as a build artifact: target/report-screenshot.png.
 */
class ReportPageIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path TARGET = Path.of("target");

    private static ChromeDriverService service;
    private static ChromeDriver driver;
    private static Path profile;

    @BeforeAll
    static void startBrowser() throws IOException {
        for (Path tool : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(tool)) {
                fail(tool + " is missing: run .ci/install-tools (it installs chromium and chromium-driver) and run the tests again");
            }
        }
        profile = Files.createTempDirectory("loadsmith-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--user-data-dir=" + profile, "--window-size=1366,900", "--hide-scrollbars");
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (driver != null) {
            driver.quit();
        }
        if (service != null) {
            service.stop();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    private static Path writeReport(String fixture) throws IOException {
        Path parent = Files.createDirectories(TARGET.resolve("report-it"));
        delete(parent.resolve(fixture));
        return ReportWriter.write(Fixtures.runDir(fixture, parent));
    }

    /** Deletes {@code dir} and all in it, when it is there: a fixture is written afresh on every run. */
    private static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    /** Loads the page, waits for the flag the page sets after drawing, returns the number of charts drawn. */
    private static long open(Path report) {
        driver.manage().window().setSize(new Dimension(1366, 900));
        driver.get(report.toAbsolutePath().toUri().toString());
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> Boolean.TRUE.equals(
                ((JavascriptExecutor) d).executeScript("return !!(window.loadsmithReport && window.loadsmithReport.ready)")));
        return (Long) js("return window.loadsmithReport.charts");
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) driver).executeScript(script);
    }

    private static List<String> severeConsoleEntries() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue())
                .map(LogEntry::getMessage).collect(Collectors.toList());
    }

    private static void assertEveryChartDrawn(List<String> ids) {
        for (String id : ids) {
            WebElement chart = driver.findElement(By.id(id));
            List<WebElement> canvases = chart.findElements(By.tagName("canvas"));
            assertThat(canvases).as(id + " has a canvas").isNotEmpty();
            assertThat(canvases.get(0).getSize().getWidth()).as(id + " width").isGreaterThan(300);
            assertThat(canvases.get(0).getSize().getHeight()).as(id + " height").isGreaterThan(150);
            Long inked = (Long) js("var c = document.getElementById('" + id + "').querySelector('canvas');"
                    + "var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, n = 0;"
                    + "for (var i = 3; i < d.length; i += 4) { if (d[i] > 0) n++; } return n;");
            assertThat(inked).as(id + " has something drawn on its canvas").isGreaterThan(2000L);
        }
    }

    private static void screenshot(Path file) throws IOException {
        long height = (Long) js("return Math.ceil(document.documentElement.scrollHeight)");
        driver.manage().window().setSize(new Dimension(1366, (int) Math.min(height + 40, 12000)));
        js("window.dispatchEvent(new Event('resize'))");
        File shot = driver.getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), file, StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void the_browser_console_is_read_by_this_test() {
        driver.get("about:blank");
        js("console.error('loadsmith console probe')");

        assertThat(severeConsoleEntries()).anyMatch(m -> m.contains("loadsmith console probe"));
    }

    @Test
    void closed_paced_and_open_report_draws_every_chart_without_console_errors() throws IOException {
        Path report = writeReport("closed-paced-open");
        severeConsoleEntries(); // drop anything logged before this page

        long charts = open(report);

        assertThat(charts).isEqualTo(7);
        assertThat(js("return document.documentElement.getAttribute('data-charts-rendered')")).isEqualTo("7");
        assertEveryChartDrawn(List.of("chart-aligned", "chart-aligned-scatter", "chart-pause-aligned", "chart-spectrum",
                "chart-timeline-0", "chart-timeline-1", "chart-timeline-2"));
        assertThat(js("var c = echarts.getInstanceByDom(document.getElementById('chart-timeline-2'));"
                + "return c.getOption().series.filter(function (s) { return s.markArea; }).map(function (s) {"
                + " return s.name + ' ' + s.markArea.data.length + ' ' + s.markArea.data[0][0].name; })"))
                .isEqualTo(List.of("injected stall 7 injected stall, 300 ms",
                        "service pause 3 service pause, 84.0 ms: safepoint: GenCollectFull SerialOld (Diagnostic Command)"));
        assertThat(driver.findElement(By.cssSelector("#summary table")).getText()).contains("paced", "corrected", "187");
        assertThat(driver.findElement(By.id("warnings")).getText()).contains("tester was the bottleneck");
        assertThat((List<?>) js("return window.loadsmithErrors")).isEmpty();
        screenshot(TARGET.resolve("report-screenshot.png"));
        assertThat(severeConsoleEntries()).isEmpty();
        assertThat(Files.size(TARGET.resolve("report-screenshot.png"))).isGreaterThan(50_000L);
    }

    @Test
    void a_replayed_report_names_each_window_on_the_aligned_plot_and_on_its_timeline() throws IOException {
        Path parent = Files.createDirectories(TARGET.resolve("report-it"));
        delete(parent.resolve("replayed"));
        Path report = ReportWriter.write(Fixtures.replayed(parent));
        severeConsoleEntries();

        long charts = open(report);

        assertThat(charts).isEqualTo(7);
        assertEveryChartDrawn(List.of("chart-aligned", "chart-timeline-0"));
        assertThat(js("var c = echarts.getInstanceByDom(document.getElementById('chart-aligned'));"
                + "return c.getOption().series.filter(function (s) { return s.markLine; }).map(function (s) {"
                + " return s.name + ' ' + s.markLine.data.length + ' ' + s.markLine.data[2].name; })"))
                .isEqualTo(List.of("replayed windows (7) 7 stall 2: gc: G1: Pause Full (System.gc()) at 21.248 s of the profile"));
        assertThat(js("var c = echarts.getInstanceByDom(document.getElementById('chart-timeline-0'));"
                + "return c.getOption().series.filter(function (s) { return s.markArea; })[0].markArea.data[0][0].name"))
                .isEqualTo("stall 0: gc: " + Fixtures.YOUNG + " at 11.000 s of the profile, 300 ms");
        assertThat(driver.findElement(By.cssSelector("#replay table")).getText()).contains("gc: G1: Pause Full", "+0.731");
        assertThat((List<?>) js("return window.loadsmithErrors")).isEmpty();
        screenshot(TARGET.resolve("report-screenshot-replayed.png"));
        assertThat(severeConsoleEntries()).isEmpty();
    }

    @Test
    void experiment_report_draws_the_dot_plots_without_console_errors() throws IOException {
        Path report = writeReport("experiment-5-rounds");
        severeConsoleEntries();

        long charts = open(report);

        assertThat(charts).isEqualTo(2);
        assertEveryChartDrawn(List.of("chart-experiment-corrected", "chart-experiment-service"));
        assertThat(driver.findElement(By.cssSelector("#experiment table.pairs")).getText()).contains("told apart");
        assertThat((List<?>) js("return window.loadsmithErrors")).isEmpty();
        screenshot(TARGET.resolve("report-screenshot-experiment.png"));
        assertThat(severeConsoleEntries()).isEmpty();
    }

    @Test
    void experiment_report_groups_warnings_marks_the_outlier_and_gives_both_verdicts() throws IOException {
        Path report = writeReport("experiment-outlier");
        severeConsoleEntries();

        long charts = open(report);

        assertThat(charts).isEqualTo(2);
        assertEveryChartDrawn(List.of("chart-experiment-corrected", "chart-experiment-service"));
        assertThat(driver.getTitle()).isEqualTo("loadsmith report \u2014 experiment lab-shape");
        List<String> warnings = driver.findElements(By.cssSelector("#warnings li")).stream().map(WebElement::getText).toList();
        assertThat(warnings).hasSize(4).doesNotHaveDuplicates();
        assertThat(warnings.get(0)).startsWith("open-546 r1 stall: the tester itself sent late");
        assertThat(warnings.get(3)).startsWith("closed-1 (all 10 runs): closed loop");
        assertThat(driver.findElements(By.cssSelector("#warnings li.tester-side"))).hasSize(3);
        assertThat(driver.findElements(By.cssSelector("#summary .badge.outlier"))).hasSize(1);
        assertThat(driver.findElement(By.cssSelector("table.outliers")).getText()).contains("open-546 r1 stall", "1009 ms", "cold start");
        WebElement pairs = driver.findElement(By.cssSelector("#experiment table.pairs"));
        assertThat(pairs.findElements(By.cssSelector("thead th"))).extracting(WebElement::getText)
                .contains("p99 corrected (from the intended send)", "p99 service (from the actual send)");
        WebElement openPaced = pairs.findElements(By.cssSelector("tbody tr")).get(2);
        assertThat(openPaced.findElements(By.cssSelector("td .badge"))).extracting(WebElement::getText)
                .containsExactly("not told apart", "told apart", "told apart");
        assertThat(js("var c = echarts.getInstanceByDom(document.getElementById('chart-experiment-corrected'));"
                + "return c.getOption().yAxis[0].type")).isEqualTo("log");
        assertThat(js("var c = echarts.getInstanceByDom(document.getElementById('chart-experiment-corrected'));"
                + "return c.getOption().series.reduce(function (n, s) { return n + s.data.filter(function (d) {"
                + " return d.outlier; }).length; }, 0)")).isEqualTo(1L);
        assertThat((List<?>) js("return window.loadsmithErrors")).isEmpty();
        screenshot(TARGET.resolve("report-screenshot-experiment-outlier.png"));
        assertThat(severeConsoleEntries()).isEmpty();
    }

    @Test
    void a_report_without_optional_parts_opens_cleanly() throws IOException {
        Path report = writeReport("minimal");
        severeConsoleEntries();

        long charts = open(report);

        assertThat(charts).isZero();
        assertThat(driver.getTitle()).isEqualTo("loadsmith report \u2014 <script>alert('x')</script> & co");
        assertThat((List<?>) js("return window.loadsmithErrors")).isEmpty();
        assertThat(severeConsoleEntries()).isEmpty();
    }
}
