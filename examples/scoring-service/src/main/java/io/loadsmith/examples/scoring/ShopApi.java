package io.loadsmith.examples.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The service's endpoints: scoring and a small stateless shop for journeys to walk.
 *
 * <pre>
 * GET  /score/{customerId}   -> {"customer_id": 42, "score": 0.123456}
 * POST /score                -> the same, from a body of every feature in {@link Features#NAMES}
 * POST /login                {"customer_id": 42}                       -> {"customer_id": 42, "session": "..."}
 * GET  /products?page=1      -> {"page": 1, "pages": 10, "products": [...]}
 * POST /basket               {"customer_id": 42, "product_id": 7, "quantity": 2} -> the line and its total
 * POST /checkout             {"customer_id": 42, "items": [{"product_id": 7, "quantity": 2}]} -> order id, total
 * GET  /health               -> {"status": "ok", ...}
 * </pre>
 *
 * Bad input answers 400 and unknown customers or products 404, each with {@code {"error": "..."}}.
 */
final class ShopApi {

    static final int PAGE_SIZE = 20;
    static final int MAX_QUANTITY = 99;
    static final int MAX_CHECKOUT_ITEMS = 50;

    private final ShopDatabase database;
    private final CustomerScores scores;
    private final List<Shop.Product> products;
    private final Map<String, String> meta;

    ShopApi(ShopDatabase database, CustomerScores scores) {
        this.database = database;
        this.scores = scores;
        this.products = database.products();
        this.meta = database.meta();
    }

    void register(RoutesConfig routes) {
        routes.get("/score/{customerId}", this::scoreCustomer);
        routes.post("/score", this::scoreFeatures);
        routes.post("/login", this::login);
        routes.get("/products", this::products);
        routes.post("/basket", this::basket);
        routes.post("/checkout", this::checkout);
        routes.get("/health", this::health);
        routes.exception(ApiException.class, (e, ctx) -> answer(ctx, e.status(), error(e.getMessage())));
    }

    private void scoreCustomer(Context ctx) {
        long customerId = customerId(ctx.pathParam("customerId"));
        answer(ctx, 200, score(customerId, scores.ofCustomer(customerId)));
    }

    private void scoreFeatures(Context ctx) {
        ObjectNode body = JsonBodies.parseObject(ctx.bodyAsBytes());
        rejectUnknownFields(body);
        double[] features = new double[Features.NAMES.size()];
        for (int i = 0; i < features.length; i++) {
            features[i] = JsonBodies.number(body, Features.NAMES.get(i));
        }
        Long customerId = body.hasNonNull("customer_id")
                ? JsonBodies.integer(body, "customer_id", 1, Long.MAX_VALUE) : null;
        answer(ctx, 200, score(customerId, scores.of(features)));
    }

    private static ObjectNode score(Long customerId, BigDecimal score) {
        ObjectNode answer = JsonBodies.object();
        answer.put("customer_id", customerId);
        answer.put("score", score);
        return answer;
    }

    private void login(Context ctx) {
        long customerId = knownCustomer(JsonBodies.parseObject(ctx.bodyAsBytes()));
        ObjectNode answer = JsonBodies.object();
        answer.put("customer_id", customerId);
        answer.put("session", session(customerId));
        answer(ctx, 200, answer);
    }

    private void products(Context ctx) {
        int pages = (products.size() + PAGE_SIZE - 1) / PAGE_SIZE;
        String pageText = ctx.queryParam("page");
        int page = pageText == null ? 1 : parsePage(pageText, pages);
        ObjectNode answer = JsonBodies.object();
        answer.put("page", page);
        answer.put("pages", pages);
        ArrayNode list = answer.putArray("products");
        for (Shop.Product product : products.subList((page - 1) * PAGE_SIZE, Math.min(products.size(), page * PAGE_SIZE))) {
            list.add(product(product));
        }
        answer(ctx, 200, answer);
    }

    private void basket(Context ctx) {
        ObjectNode body = JsonBodies.parseObject(ctx.bodyAsBytes());
        long customerId = knownCustomer(body);
        ObjectNode line = line(body);
        line.put("customer_id", customerId);
        answer(ctx, 200, line);
    }

    private void checkout(Context ctx) {
        ObjectNode body = JsonBodies.parseObject(ctx.bodyAsBytes());
        long customerId = knownCustomer(body);
        JsonNode items = body.get("items");
        if (items == null || !items.isArray() || items.isEmpty() || items.size() > MAX_CHECKOUT_ITEMS) {
            throw ApiException.badRequest("items must be an array of 1.." + MAX_CHECKOUT_ITEMS + " {product_id, quantity}");
        }
        long totalCents = 0;
        long orderHash = customerId;
        for (JsonNode item : items) {
            ObjectNode line = line(item);
            totalCents += line.get("line_total").decimalValue().movePointRight(2).longValueExact();
            orderHash = orderHash * 31 + line.get("product_id").longValue() * 100 + line.get("quantity").longValue();
        }
        ObjectNode answer = JsonBodies.object();
        answer.put("customer_id", customerId);
        answer.put("order_id", "o-" + Long.toHexString(mix(orderHash)));
        answer.put("items", items.size());
        answer.put("total", BigDecimal.valueOf(totalCents, 2));
        answer(ctx, 200, answer);
    }

    private void health(Context ctx) {
        ObjectNode answer = JsonBodies.object();
        answer.put("status", "ok");
        meta.forEach((key, value) -> {
            if (!key.equals("features")) {
                answer.put(key, value);
            }
        });
        answer(ctx, 200, answer);
    }

    /** A basket line from {@code {product_id, quantity}}, priced. */
    private ObjectNode line(JsonNode item) {
        if (!item.isObject()) {
            throw ApiException.badRequest("an item must be an object {product_id, quantity} (got " + item + ")");
        }
        long productId = JsonBodies.integer(item, "product_id", 1, Integer.MAX_VALUE);
        if (productId > products.size()) {
            throw ApiException.notFound("unknown product " + productId);
        }
        long quantity = JsonBodies.integer(item, "quantity", 1, MAX_QUANTITY);
        Shop.Product product = products.get((int) productId - 1);
        ObjectNode line = JsonBodies.object();
        line.put("product_id", productId);
        line.put("quantity", quantity);
        line.put("unit_price", BigDecimal.valueOf(product.priceCents(), 2));
        line.put("line_total", BigDecimal.valueOf(product.priceCents() * quantity, 2));
        return line;
    }

    private long knownCustomer(JsonNode body) {
        long customerId = JsonBodies.integer(body, "customer_id", 1, Long.MAX_VALUE);
        if (!database.hasCustomer(customerId)) {
            throw ApiException.notFound("unknown customer " + customerId);
        }
        return customerId;
    }

    private static ObjectNode product(Shop.Product product) {
        ObjectNode node = JsonBodies.object();
        node.put("product_id", product.productId());
        node.put("name", product.name());
        node.put("category", product.category());
        node.put("price", BigDecimal.valueOf(product.priceCents(), 2));
        return node;
    }

    private void rejectUnknownFields(ObjectNode body) {
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("customer_id") && !Features.NAMES.contains(name)) {
                throw ApiException.badRequest("unknown field " + name + " (expected " + String.join(", ", Features.NAMES) + ")");
            }
        }
    }

    private static long customerId(String text) {
        try {
            long customerId = Long.parseLong(text);
            if (customerId >= 1) {
                return customerId;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest("customerId must be a positive integer (got " + text + ")");
    }

    private static int parsePage(String text, int pages) {
        try {
            int page = Integer.parseInt(text);
            if (page >= 1 && page <= pages) {
                return page;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest("page must be an integer in 1.." + pages + " (got " + text + ")");
    }

    private String session(long customerId) {
        return "s-" + Long.toHexString(mix(customerId ^ Long.parseLong(meta.get("seed")) * 0x9E3779B97F4A7C15L));
    }

    /** A fixed bit mixer (SplitMix64's finalizer): the same ids give the same tokens on every run. */
    private static long mix(long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static ObjectNode error(String message) {
        return JsonBodies.object().put("error", message);
    }

    static void answer(Context ctx, int status, JsonNode body) {
        ctx.status(status).contentType("application/json").result(JsonBodies.bytes(body));
    }
}
