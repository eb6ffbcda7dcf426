package io.loadsmith.examples.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every endpoint over real HTTP, on a server started on a free port. */
class ShopApiTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static Path database;
    private static ScoringService service;

    @BeforeAll
    static void start() throws Exception {
        database = TestShops.database(TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS);
        service = ScoringService.start(new Options(0, 4, database, TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS));
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    @Test
    void get_score_answers_the_reference_score_of_a_customer() throws Exception {
        Map<Long, String> expected = ReferenceScores.read(ShopFiles.referenceScores(database));

        for (long customerId : new long[] {1, 2, 999, 2_000}) {
            HttpResponse<String> response = get("/score/" + customerId);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
            assertThat(response.body())
                    .isEqualTo("{\"customer_id\":" + customerId + ",\"score\":" + expected.get(customerId) + "}");
        }
    }

    @Test
    void get_score_of_an_unknown_customer_is_404() throws Exception {
        assertAnswer(get("/score/2001"), 404, "{\"error\":\"unknown customer 2001\"}");
    }

    @Test
    void get_score_of_a_malformed_id_is_400() throws Exception {
        assertAnswer(get("/score/abc"), 400, "{\"error\":\"customerId must be a positive integer (got abc)\"}");
        assertAnswer(get("/score/0"), 400, "{\"error\":\"customerId must be a positive integer (got 0)\"}");
    }

    @Test
    void post_score_scores_a_body_of_features_as_get_scores_the_customer() throws Exception {
        double[] features;
        try (ShopDatabase opened = ShopDatabase.open(database)) {
            features = opened.features(42).orElseThrow();
        }
        String body = "{\"customer_id\":42," + java.util.stream.IntStream.range(0, features.length)
                .mapToObj(i -> "\"" + Features.NAMES.get(i) + "\":" + features[i]).collect(Collectors.joining(",")) + "}";

        HttpResponse<String> response = post("/score", body);

        assertAnswer(response, 200, get("/score/42").body());
    }

    @Test
    void post_score_without_a_customer_id_answers_null_for_it() throws Exception {
        String body = "{" + Features.NAMES.stream().map(name -> "\"" + name + "\":1").collect(Collectors.joining(",")) + "}";

        JsonNode answer = JsonBodies.MAPPER.readTree(post("/score", body).body());

        assertThat(answer.get("customer_id").isNull()).isTrue();
        assertThat(answer.get("score").decimalValue().scale()).isEqualTo(6);
    }

    @Test
    void post_score_with_bad_bodies_is_400_naming_the_problem() throws Exception {
        String allButLast = Features.NAMES.subList(0, Features.NAMES.size() - 1).stream()
                .map(name -> "\"" + name + "\":1").collect(Collectors.joining(","));

        assertAnswer(post("/score", ""), 400, "{\"error\":\"body must be a JSON object (got an empty body)\"}");
        assertAnswer(post("/score", "[1,2]"), 400, "{\"error\":\"body must be a JSON object\"}");
        assertThat(post("/score", "{nope").body()).startsWith("{\"error\":\"body is not JSON: ");
        assertAnswer(post("/score", "{" + allButLast + "}"), 400, "{\"error\":\"missing field spend_30d\"}");
        assertAnswer(post("/score", "{" + allButLast + ",\"spend_30d\":\"a lot\"}"), 400,
                "{\"error\":\"spend_30d must be a number (got \\\"a lot\\\")\"}");
        assertThat(post("/score", "{" + allButLast + ",\"spend_30d\":1,\"colour\":2}").body())
                .startsWith("{\"error\":\"unknown field colour (expected tenure_days, ");
    }

    @Test
    void login_answers_a_session_for_a_known_customer() throws Exception {
        HttpResponse<String> first = post("/login", "{\"customer_id\":7}");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).matches("\\{\"customer_id\":7,\"session\":\"s-[0-9a-f]+\"}");
        assertThat(post("/login", "{\"customer_id\":7}").body()).isEqualTo(first.body());
        assertAnswer(post("/login", "{\"customer_id\":9999}"), 404, "{\"error\":\"unknown customer 9999\"}");
        assertAnswer(post("/login", "{}"), 400, "{\"error\":\"missing field customer_id\"}");
        assertAnswer(post("/login", "{\"customer_id\":\"x\"}"), 400,
                "{\"error\":\"customer_id must be an integer in 1..9223372036854775807 (got \\\"x\\\")\"}");
    }

    @Test
    void products_are_browsed_twenty_a_page() throws Exception {
        JsonNode first = JsonBodies.MAPPER.readTree(get("/products").body());
        JsonNode last = JsonBodies.MAPPER.readTree(get("/products?page=10").body());

        assertThat(first.get("page").asInt()).isEqualTo(1);
        assertThat(first.get("pages").asInt()).isEqualTo(10);
        assertThat(first.get("products")).hasSize(20);
        assertThat(first.get("products").get(0).get("product_id").asInt()).isEqualTo(1);
        assertThat(last.get("products").get(19).get("product_id").asInt()).isEqualTo(200);
        assertAnswer(get("/products?page=11"), 400, "{\"error\":\"page must be an integer in 1..10 (got 11)\"}");
    }

    @Test
    void basket_prices_a_line() throws Exception {
        JsonNode product = JsonBodies.MAPPER.readTree(get("/products").body()).get("products").get(2);
        long priceCents = product.get("price").decimalValue().movePointRight(2).longValueExact();

        JsonNode line = JsonBodies.MAPPER.readTree(post("/basket", "{\"customer_id\":7,\"product_id\":3,\"quantity\":2}").body());

        assertThat(line.get("customer_id").asLong()).isEqualTo(7);
        assertThat(line.get("quantity").asInt()).isEqualTo(2);
        assertThat(line.get("line_total").decimalValue().movePointRight(2).longValueExact()).isEqualTo(2 * priceCents);
        assertAnswer(post("/basket", "{\"customer_id\":7,\"product_id\":201,\"quantity\":1}"), 404,
                "{\"error\":\"unknown product 201\"}");
        assertAnswer(post("/basket", "{\"customer_id\":7,\"product_id\":3,\"quantity\":100}"), 400,
                "{\"error\":\"quantity must be an integer in 1..99 (got 100)\"}");
    }

    @Test
    void checkout_totals_the_items_and_names_the_order_the_same_way_every_time() throws Exception {
        String body = "{\"customer_id\":7,\"items\":[{\"product_id\":1,\"quantity\":1},{\"product_id\":2,\"quantity\":3}]}";
        JsonNode products = JsonBodies.MAPPER.readTree(get("/products").body()).get("products");
        long expectedCents = cents(products.get(0).get("price")) + 3 * cents(products.get(1).get("price"));

        HttpResponse<String> response = post("/checkout", body);
        JsonNode order = JsonBodies.MAPPER.readTree(response.body());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(order.get("items").asInt()).isEqualTo(2);
        assertThat(cents(order.get("total"))).isEqualTo(expectedCents);
        assertThat(order.get("order_id").asText()).matches("o-[0-9a-f]+");
        assertThat(post("/checkout", body).body()).isEqualTo(response.body());
        assertAnswer(post("/checkout", "{\"customer_id\":7,\"items\":[]}"), 400,
                "{\"error\":\"items must be an array of 1..50 {product_id, quantity}\"}");
    }

    @Test
    void health_says_ok_and_what_made_the_shop() throws Exception {
        JsonNode health = JsonBodies.MAPPER.readTree(get("/health").body());

        assertThat(health.get("status").asText()).isEqualTo("ok");
        assertThat(health.get("seed").asText()).isEqualTo("3");
        assertThat(health.get("customers").asText()).isEqualTo("2000");
    }

    @Test
    void the_server_listens_on_loopback_only() {
        assertThat(service.baseUrl()).isEqualTo("http://127.0.0.1:" + service.port());
        assertThat(service.port()).isPositive();
    }

    private static long cents(JsonNode money) {
        return money.decimalValue().movePointRight(2).longValueExact();
    }

    private static void assertAnswer(HttpResponse<String> response, int status, String body) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.body()).isEqualTo(body);
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path)).GET());
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(service.baseUrl() + path))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return CLIENT.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
