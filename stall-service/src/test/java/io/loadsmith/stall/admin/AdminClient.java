package io.loadsmith.stall.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small real HTTP client for the admin API in tests. */
final class AdminClient {

    record Answer(int status, String contentType, String body, java.net.http.HttpHeaders headers) {
        JsonNode json() {
            try {
                return MAPPER.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        String error() {
            return json().get("error").asText();
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private String token;

    AdminClient(InetSocketAddress address) {
        this.base = "http://127.0.0.1:" + address.getPort();
    }

    AdminClient token(String token) {
        this.token = token;
        return this;
    }

    Answer get(String pathAndQuery) throws Exception {
        return send(request(pathAndQuery).GET());
    }

    Answer postJson(String path, String json) throws Exception {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Answer post(String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = request(path).POST(HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    /** Posts a body without a Content-Length (chunked). */
    Answer postChunked(String path, byte[] body) throws Exception {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))));
    }

    Answer method(String method, String path) throws Exception {
        return send(request(path).method(method, HttpRequest.BodyPublishers.noBody()));
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    private Answer send(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                response.body(), response.headers());
    }
}
