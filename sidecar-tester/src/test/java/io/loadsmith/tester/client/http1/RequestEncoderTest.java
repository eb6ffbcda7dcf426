package io.loadsmith.tester.client.http1;

import io.loadsmith.tester.transport.RequestSpec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestEncoderTest {

    private static String encode(String method, String uri, Map<String, String> headers, String body) {
        RequestSpec spec = new RequestSpec(method, URI.create(uri), headers,
                body == null ? null : body.getBytes(StandardCharsets.UTF_8), null, 0, 0);
        return new String(RequestEncoder.encode(spec), StandardCharsets.UTF_8);
    }

    @Test
    void a_get_with_a_query_is_a_request_line_and_a_host() {
        assertThat(encode("GET", "http://127.0.0.1:8080/score?user=7&x=a%20b", Map.of(), null))
                .isEqualTo("GET /score?user=7&x=a%20b HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
    }

    @Test
    void an_empty_path_is_the_root() {
        assertThat(encode("GET", "http://example.com", Map.of(), null))
                .isEqualTo("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n");
        assertThat(encode("GET", "http://example.com?q=1", Map.of(), null))
                .isEqualTo("GET /?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n");
    }

    @Test
    void a_post_with_a_body_has_its_type_and_length() {
        assertThat(encode("POST", "http://svc:9000/score", Map.of(), "{\"a\":1}"))
                .isEqualTo("POST /score HTTP/1.1\r\nHost: svc:9000\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 7\r\n\r\n{\"a\":1}");
        assertThat(encode("PATCH", "http://svc:9000/x", Map.of("content-type", "text/csv"), "a,b"))
                .isEqualTo("PATCH /x HTTP/1.1\r\nHost: svc:9000\r\ncontent-type: text/csv\r\nContent-Length: 3\r\n\r\na,b");
    }

    @Test
    void post_and_put_without_a_body_send_a_length_of_zero() {
        assertThat(encode("POST", "http://svc/", Map.of(), null))
                .isEqualTo("POST / HTTP/1.1\r\nHost: svc\r\nContent-Length: 0\r\n\r\n");
        assertThat(encode("PUT", "http://svc/", Map.of(), null))
                .isEqualTo("PUT / HTTP/1.1\r\nHost: svc\r\nContent-Length: 0\r\n\r\n");
        assertThat(encode("DELETE", "http://svc/", Map.of(), null))
                .isEqualTo("DELETE / HTTP/1.1\r\nHost: svc\r\n\r\n");
    }

    @Test
    void default_ports_are_left_out_of_the_host() {
        assertThat(encode("GET", "http://svc:80/", Map.of(), null)).isEqualTo("GET / HTTP/1.1\r\nHost: svc\r\n\r\n");
        assertThat(encode("GET", "https://svc:443/", Map.of(), null)).isEqualTo("GET / HTTP/1.1\r\nHost: svc\r\n\r\n");
        assertThat(encode("GET", "https://svc:80/", Map.of(), null)).isEqualTo("GET / HTTP/1.1\r\nHost: svc:80\r\n\r\n");
        assertThat(encode("GET", "http://svc:443/", Map.of(), null)).isEqualTo("GET / HTTP/1.1\r\nHost: svc:443\r\n\r\n");
    }

    @Test
    void an_ipv6_literal_host_keeps_its_brackets() {
        assertThat(encode("GET", "http://[::1]:8080/a", Map.of(), null))
                .isEqualTo("GET /a HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n");
        assertThat(encode("GET", "http://[::1]/a", Map.of(), null)).isEqualTo("GET /a HTTP/1.1\r\nHost: [::1]\r\n\r\n");
    }

    @Test
    void a_host_name_with_an_underscore_is_written_as_given() {
        assertThat(encode("GET", "http://user@scoring_service:8080/", Map.of(), null))
                .isEqualTo("GET / HTTP/1.1\r\nHost: scoring_service:8080\r\n\r\n");
    }

    @Test
    void the_specs_headers_follow_the_host_in_their_order() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Accept", "application/json");
        headers.put("X-Trace", "abc-1");
        headers.put("Content-Length", "999");
        assertThat(encode("GET", "http://svc:8080/", headers, null))
                .isEqualTo("GET / HTTP/1.1\r\nHost: svc:8080\r\nAccept: application/json\r\nX-Trace: abc-1\r\n\r\n");
    }

    @Test
    void a_host_header_in_the_spec_replaces_the_uris() {
        assertThat(encode("GET", "http://10.0.0.1:8080/", Map.of("host", "api.example.com"), null))
                .isEqualTo("GET / HTTP/1.1\r\nhost: api.example.com\r\n\r\n");
    }

    @Test
    void non_ascii_in_the_path_is_percent_encoded_and_in_values_sent_as_utf_8() {
        assertThat(encode("GET", "http://svc/caf\u00e9/\ud83d\ude00?q=\u20ac", Map.of("X-Name", "Zo\u00eb"), null))
                .isEqualTo("GET /caf%C3%A9/%F0%9F%98%80?q=%E2%82%AC HTTP/1.1\r\nHost: svc\r\nX-Name: Zo\u00eb\r\n\r\n");
    }

    @Test
    void encoding_into_a_buffer_appends_to_what_is_there() {
        ByteBuf out = Unpooled.buffer().writeByte('>');
        RequestEncoder.encode(RequestSpec.get(URI.create("http://h:1/"), 0, 0), out);
        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo(">GET / HTTP/1.1\r\nHost: h:1\r\n\r\n");
        out.release();
    }

    @Test
    void a_value_or_name_that_would_split_the_request_is_refused() {
        assertThatThrownBy(() -> encode("GET", "http://svc/", Map.of("X-A", "a\r\nX-B: b"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("header X-A has a CR, LF or NUL in its value");
        assertThatThrownBy(() -> encode("GET", "http://svc/", Map.of("X A", "a"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("header name 'X A'");
        assertThatThrownBy(() -> encode("GE T", "http://svc/", Map.of(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("method 'GE T'");
    }
}
