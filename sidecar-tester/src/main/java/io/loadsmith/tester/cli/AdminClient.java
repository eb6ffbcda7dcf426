package io.loadsmith.tester.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Calls an agent's admin API (DESIGN.md, "The admin protocol") with the JDK's HTTP client: a handful of
 * calls per run, so the load client's tuning does not matter here.
 */
public final class AdminClient {

    static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();

    public AdminClient(URI base, String token) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.token = token;
    }

    public URI base() {
        return base;
    }

    public JsonNode get(String path) {
        return call(HttpRequest.newBuilder(base.resolve(base.getPath() + path)).GET(), path);
    }

    public JsonNode post(String path, Object body) {
        String json;
        try {
            json = JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return call(HttpRequest.newBuilder(base.resolve(base.getPath() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)), path);
    }

    private JsonNode call(HttpRequest.Builder builder, String path) {
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response;
        try {
            response = http.send(builder.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException | HttpConnectTimeoutException e) {
            throw new UnreachableException("the agent at " + base + " cannot be reached (" + e + ")");
        } catch (IOException e) {
            throw new UnreachableException("the agent at " + base + " did not answer " + path + " (" + e + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnreachableException("interrupted while calling " + base + path);
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            body = null;
        }
        int status = response.statusCode();
        if (status == 401) {
            throw new BadInputException(base + path + ": 401, the agent wants a valid token (--token-file)");
        }
        if (status >= 400) {
            String error = body != null && body.has("error") ? body.get("error").asText() : response.body();
            throw new BadInputException(base + path + ": " + status + ", " + error);
        }
        if (body == null) {
            throw new UnreachableException(base + path + " did not answer JSON (is it a loadsmith agent?)");
        }
        return body;
    }
}
