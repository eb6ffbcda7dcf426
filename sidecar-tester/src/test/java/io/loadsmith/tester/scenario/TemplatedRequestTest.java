package io.loadsmith.tester.scenario;

import io.loadsmith.tester.client.http1.RequestEncoder;
import io.loadsmith.tester.scenario.Scenario.JourneySpec;
import io.loadsmith.tester.scenario.Scenario.Step;
import io.loadsmith.tester.transport.RequestSpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A templated request written from its row into the transport's buffer is, byte for byte, the request the
 * text path writes: the template rendered to a String, a URI, headers and a body, then {@link RequestEncoder}.
 */
class TemplatedRequestTest {

    /** 10 rows of id, name, text: plain, non-ASCII, needing percent-encoding, empty, JSON-breaking, header-breaking. */
    private static final String ROWS = """
            id,name,text
            7,alice,hello
            42,Zo\u00eb,caf\u00e9 \u20ac
            c-1,\u65e5\u672c\u8a9e,\ud83d\ude00
            ,,
            a/b,x;y=z&w+v,"quote "" here"
            a b,p?q,r#s
            %41,%zz,100%
            "a\u00a0b",tab\there,"line
            break"
            [1],{x},"{""k"": [1, 2]}"
            \u0085,~*'(),  {lead
            """;

    @TempDir
    Path dir;

    private List<JourneySpec> journeys(String steps) throws IOException {
        Files.writeString(dir.resolve("rows.csv"), ROWS, StandardCharsets.UTF_8);
        String yaml = "target: {url: 'http://127.0.0.1:8080/api'}\nload: {rate: 1, duration: 1s}\n"
                + "journeys:\n  - data: rows.csv\n    steps:\n" + steps;
        return ScenarioParser.parse(yaml, "t.yaml", dir, List.of()).journeys();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            a path                        |  5 | `      - request: GET /users/${id}/${name}\\n`
            a query                       |  3 | `      - request: 'GET /search?q=${text}&n=${name}&id=${id}'\\n`
            an absolute URL               |  5 | `      - request: 'GET https://other.example:8443/x/${id}?y=${name}'\\n`
            an absolute URL with no path  |  5 | `      - request: 'GET http://other.example?q=${id}'\\n`
            headers                       |  9 | `      - request: GET /h\\n        headers: {X-Name: '${name}', X-Text: 'a ${text} b', Accept: application/json}\\n`
            a Host header                 | 10 | `      - request: GET /h\\n        headers: {host: 'api.${id}.example', Content-Length: '99'}\\n`
            a JSON body                   |  5 | `      - request: POST /orders/${id}\\n        body: '{\"name\": \"${name}\", \"text\": \"${text}\"}'\\n`
            a body that is all a value    | 10 | `      - request: PUT /raw\\n        body: '${text}'\\n`
            a body with a type            |  5 | `      - request: PATCH /p/${id}\\n        headers: {Content-Type: 'text/csv'}\\n        body: '${id},${name}'\\n`
            a POST without a body         |  5 | `      - request: POST /p/${id}\\n`
            a literal placeholder         |  0 | `      - request: 'GET /lit/$${x}/${id}'\\n        headers: {X-L: '$${y} ${name}'}\\n`
            an escape in the path         |  5 | `      - request: 'GET /a%20b/${id}'\\n`
            a percent before a value      |  0 | `      - request: 'GET /a%${id}'\\n`
            a value in the host           |  0 | `      - request: 'GET http://h${id}.example/'\\n`
            """)
    void a_planned_row_writes_the_bytes_of_the_rendered_request_and_any_other_row_is_rendered_as_before(
            String what, int expectedPlannedRows, String steps) throws IOException {
        JourneySpec journey = journeys(steps.replace("\\n", "\n")).get(0);
        Step step = journey.steps().get(0);
        StepTemplate template = new StepTemplate("http://127.0.0.1:8080/api", step, journey.data());
        int plannedRows = 0;
        for (int r = 0; r < journey.data().size(); r++) {
            int row = r;
            Object expected = reference(step, journey.data(), row);
            plannedRows += template.planned(row) ? 1 : 0;
            for (int connection : new int[] {-1, 3}) {
                if (template.planned(row)) {
                    RequestSpec spec = RequestSpec.templated(step.method(), template.endpoint(), template, row, null,
                            connection, 5);
                    assertThat(text(planned(spec))).as("%s, row %d", what, row).isEqualTo(expected);
                    assertThat(text(RequestEncoder.encode(spec))).as("%s, row %d rendered", what, row).isEqualTo(expected);
                    assertThat(spec.rendered().uri().getHost()).isEqualTo(spec.uri().getHost());
                    assertThat(spec.rendered().uri().getPort()).isEqualTo(spec.uri().getPort());
                } else {
                    Object actual = bytesOrFailure(() -> RequestEncoder.encode(template.plain(row, null, connection, 5)));
                    assertThat(actual).as("%s, row %d as text", what, row).isEqualTo(expected);
                }
            }
        }
        assertThat(plannedRows).isEqualTo(expectedPlannedRows);
    }

    @Test
    void rows_whose_values_fit_are_planned_and_the_others_are_not() throws IOException {
        JourneySpec journey = journeys("      - request: 'GET /q/${id}?t=${text}'\n        headers: {X-N: '${name}'}\n").get(0);
        StepTemplate template = new StepTemplate("http://127.0.0.1:8080/api", journey.steps().get(0), journey.data());
        StringBuilder planned = new StringBuilder();
        for (int row = 0; row < journey.data().size(); row++) {
            planned.append(template.planned(row) ? 'p' : '-');
        }
        // rows: plain, non-ASCII with a space, emoji, empty, quote and space, ? #, % , tab and line break, [ {, C1 control
        assertThat(planned.toString()).isEqualTo("p-pp------");
    }

    @Test
    void the_source_hands_planned_rows_over_as_templates_and_constant_steps_as_one_request() throws IOException {
        List<JourneySpec> journeys = journeys("      - request: GET /users/${id}\n      - request: GET /health\n");
        ScenarioSource source = new ScenarioSource(URI.create("http://127.0.0.1:8080/api/"), journeys, 1);
        int templated = 0;
        for (long a = 0; a < 200; a++) {
            long arrival = a;
            int row = source.rowOf(arrival, 0);
            Object expected = reference(journeys.get(0).steps().get(0), journeys.get(0).data(), row);
            Object actual = bytesOrFailure(() -> {
                RequestSpec first = source.request(arrival, 0, 2);
                assertThat(first.connection()).isEqualTo(2);
                assertThat(first.step()).isZero();
                return first.template() != null ? planned(first) : RequestEncoder.encode(first);
            });
            assertThat(actual).isEqualTo(expected);
            if (new StepTemplate("http://127.0.0.1:8080/api", journeys.get(0).steps().get(0), journeys.get(0).data())
                    .planned(row)) {
                templated++;
                assertThat(source.request(arrival, 0, 2).template()).isNotNull();
            }
            assertThat(source.request(arrival, 1, 2)).isSameAs(source.request(arrival + 1, 1, 2));
        }
        assertThat(templated).isGreaterThan(50);
        assertThat(new String(RequestEncoder.encode(source.request(0, 1, -1)), StandardCharsets.US_ASCII))
                .isEqualTo("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `      - request: 'GET /a/${id'\\n`                                | t.yaml:6: journeys[0].steps[0].request has an unclosed ${ at character 4
            `      - request: GET /a\\n        headers: {X-A: 'v ${}'}\\n`      | t.yaml:7: journeys[0].steps[0].headers.X-A has an empty ${} at character 3
            `      - request: POST /a\\n        body: '{\"a\": \"${nme}\"}'\\n` | t.yaml:7: journeys[0].steps[0].body uses ${nme}, which is not a column of rows.csv (columns: id, name, text; did you mean name?)
            """)
    void a_bad_template_is_still_refused_with_its_file_line_and_field(String steps, String message) {
        assertThatThrownBy(() -> journeys(steps.replace("\\n", "\n")))
                .isInstanceOf(ScenarioException.class).hasMessage(message);
    }

    /** The request as the text path writes it: the bytes, or the failure it meets. */
    private static Object reference(Step step, DataTable data, int row) {
        return bytesOrFailure(() -> {
            Function<String, String> values = name -> data.value(row, name);
            String path = step.path().render(values);
            URI uri = URI.create(path.startsWith("/") ? "http://127.0.0.1:8080/api" + path : path);
            Map<String, String> headers = new LinkedHashMap<>();
            step.headers().forEach((name, template) -> headers.put(name, template.render(values)));
            byte[] body = step.body() == null ? null : step.body().render(values).getBytes(StandardCharsets.UTF_8);
            return RequestEncoder.encode(new RequestSpec(step.method(), uri, headers, body, null, 0, 0));
        });
    }

    /** What the default transport writes: the template's bytes in a pooled direct buffer. */
    private static byte[] planned(RequestSpec spec) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(256);
        try {
            spec.template().encode(spec, buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    private interface Bytes {
        byte[] get();
    }

    /** The bytes as text, one char a byte (readable in a failed assertion), or the failure's class and message. */
    private static Object bytesOrFailure(Bytes bytes) {
        try {
            return text(bytes.get());
        } catch (RuntimeException e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
