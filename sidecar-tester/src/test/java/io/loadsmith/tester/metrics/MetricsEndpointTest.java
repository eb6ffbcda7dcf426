package io.loadsmith.tester.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.record.LiveStats;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The endpoint on a real loopback socket, scraped as Prometheus scrapes it. */
class MetricsEndpointTest {

    @Test
    void a_scrape_that_asks_for_gzip_gets_the_text_uncompressed() throws Exception {
        LiveStats live = new LiveStats();
        RunLabels labels = new RunLabels("score", "open", "0/1", "run-1");
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), labels, live,
                Clock.system())) {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(endpoint.uri())
                            .header("Accept", "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5")
                            .header("Accept-Encoding", "gzip")
                            .timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.headers().firstValue("Content-Encoding")).isEmpty();
            assertThat(answer.body()).contains("loadsmith_tester_requests_total{outcome=\"ok\",run_id=\"run-1\"");
        }
    }
}
