package io.loadsmith.stall.admin;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A seeded generator of hostile admin API calls, shared by {@code AdminFuzzIT} and the fuzz bench: the same
 * seed gives the same cases. Each case is either raw bytes (for what an HTTP client refuses to send) or a
 * well-formed call for the JDK {@code HttpClient}, and says whether it may arm by the API's own rules
 * ({@link Case#mayArm}): a {@code POST /arm} whose every part is valid, or whose mutation leaves it valid
 * or might (a dropped {@code kind}, a number at an edge that the plan may accept). A case that may not arm
 * must never be answered 200 on {@code /arm}.
 *
 * <p>Not thread-safe: one generator per sending thread.
 */
final class AdminFuzz {

    /** The families of cases, in the order of the bench's table. */
    enum Family {
        ARM_BODY, METHOD, PATH, QUERY, HEADERS, GARBAGE, VALID
    }

    /**
     * One call. {@code raw} is the whole request when it goes on a raw socket, else null and the call is
     * {@code method path} with {@code headers} and {@code body} through the JDK client.
     */
    record Case(int index, Family family, String mutation, byte[] raw, String method, String path,
                Map<String, String> headers, byte[] body, boolean mayArm) {

        /** True when the call's request line names {@code /arm} (a 200 then means it armed). */
        boolean aimsAtArm() {
            String line = raw != null ? new String(raw, 0, Math.min(raw.length, 20_000), StandardCharsets.ISO_8859_1).split("\r?\n", 2)[0]
                    : path;
            return line.replace("/disarm", "").contains("/arm");
        }

        String describe() {
            String what = raw != null ? new String(raw, 0, Math.min(raw.length, 160), StandardCharsets.ISO_8859_1)
                    : method + " " + path;
            return "#" + index + " " + family + "/" + mutation + ": " + what.replace("\r", "\\r").replace("\n", "\\n");
        }
    }

    private static final String[] SEEDED_KEYS = {"seed", "mean_interval_ms", "duration_ms", "min_gap_ms", "horizon_ms", "kind"};
    private static final String[] NUMBER_EDGES = {"-1", "0", "-0", "0.0", "-0.0", "1", "2147483647", "2147483648", "-2147483649",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616", "1e308", "1.7976931348623157e308",
        "-1e308", "4.9e-324", "1e-400", "1e400", "1e999999999", "123456789012345678901234567890", "0.1", "100.000000000000001", "1E2",
        "3600000", "3600001", "10000", "10000.5"};
    private static final String[] NOT_JSON_NUMBERS = {"NaN", "Infinity", "-Infinity", "+1", "01", ".5", "1.", "0x10", "1e", "--1", "1_000"};
    private static final String[] WRONG_TYPES = {"\"7\"", "true", "null", "[]", "{}", "[1]", "{\"a\":1}", "\"\"", "\"100ms\""};
    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT",
        "get", "post", "Post", "P0ST", "GETT", "PRI", "M-SEARCH", "PROPFIND", "X"};
    private static final String[] PATHS = {"/arm", "/disarm", "/stalls", "/pauses", "/clock", "/health", "/metrics"};
    private static final String[] ODD_PATHS = {"/", "", "*", "/arm/", "/ARM", "//arm", "/arm/..", "/./arm", "/%61rm", "/arm%00",
        "/arm%2f", "/%2e%2e/arm", "/arm;x=1", "/arm#frag", "/arm?", "/arm?x", "http://127.0.0.1/arm", "http://other.example/arm",
        "/stalls/", "/healthz", "/metrics.json", "/arm\u00e9", "/\u00ff\u00fe", "/%", "/%zz", "/arm%20", "../../etc/passwd",
        "/clock?", "/health?a=b", "/" + "a".repeat(10_000), "/arm" + "/x".repeat(2_000)};
    private static final String[] QUERY_VALUES = {"-1", "0", "1", "2147483648", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "1e3", "", "%00", "%zz", "%", "+", "%2B1", "0x10", "00000000000000000000000001", " 1", "1%20",
        "\u00e9", "%C3%A9", "%FF", "null", "[]", "9".repeat(400)};

    private final SplittableRandom random;
    private final String token;
    private int index;

    /** @param token the admin token every case carries unless it mutates it (the server must be started with it) */
    AdminFuzz(long seed, String token) {
        this.random = new SplittableRandom(seed);
        this.token = token;
    }

    Case next() {
        int roll = random.nextInt(100);
        Family family = roll < 35 ? Family.ARM_BODY : roll < 45 ? Family.METHOD : roll < 55 ? Family.PATH
                : roll < 67 ? Family.QUERY : roll < 82 ? Family.HEADERS : roll < 92 ? Family.GARBAGE : Family.VALID;
        index++;
        return switch (family) {
            case ARM_BODY -> armBody();
            case METHOD -> method();
            case PATH -> path();
            case QUERY -> query();
            case HEADERS -> headers();
            case GARBAGE -> garbage();
            case VALID -> valid();
        };
    }

    // ---- valid bodies -------------------------------------------------------------------------------

    /** The fields of a valid seeded plan, as JSON texts, in order. */
    private List<String[]> seededFields() {
        List<String[]> fields = new ArrayList<>();
        fields.add(new String[] {"seed", Long.toString(random.nextLong())});
        fields.add(new String[] {"mean_interval_ms", "4000"});
        fields.add(new String[] {"duration_ms", Integer.toString(1 + random.nextInt(100))});
        fields.add(new String[] {"min_gap_ms", "500"});
        fields.add(new String[] {"horizon_ms", "60000"});
        fields.add(new String[] {"kind", random.nextBoolean() ? "\"block\"" : "\"spin\""});
        return fields;
    }

    private String validExplicit() {
        int first = 500 + random.nextInt(1000);
        return "{\"stalls\": [{\"offset_ms\": " + first + ", \"duration_ms\": 5}, {\"offset_ms\": " + (first + 1000)
                + ", \"duration_ms\": 5}], \"kind\": \"block\"}";
    }

    private static String object(List<String[]> fields) {
        StringBuilder json = new StringBuilder("{");
        for (String[] field : fields) {
            if (json.length() > 1) {
                json.append(", ");
            }
            json.append('"').append(field[0]).append("\": ").append(field[1]);
        }
        return json.append('}').toString();
    }

    private String validBody() {
        return random.nextInt(4) == 0 ? validExplicit() : object(seededFields());
    }

    // ---- families -----------------------------------------------------------------------------------

    private Case armBody() {
        List<String[]> fields = seededFields();
        int at = random.nextInt(fields.size());
        String key = fields.get(at)[0];
        String mutation;
        boolean mayArm = false;
        byte[] body;
        switch (random.nextInt(16)) {
            case 0 -> {
                mutation = "drop " + key;
                fields.remove(at);
                mayArm = key.equals("kind");
                body = utf8(object(fields));
            }
            case 1 -> {
                mutation = "duplicate " + key;
                fields.add(random.nextInt(fields.size() + 1), fields.get(at).clone());
                body = utf8(object(fields));
            }
            case 2 -> {
                mutation = "wrong type " + key;
                fields.get(at)[1] = pick(WRONG_TYPES);
                body = utf8(object(fields));
            }
            case 3, 4 -> {
                mutation = "edge number " + key;
                fields.get(at)[1] = pick(NUMBER_EDGES);
                mayArm = true;
                body = utf8(object(fields));
            }
            case 5 -> {
                mutation = "not a JSON number " + key;
                fields.get(at)[1] = pick(NOT_JSON_NUMBERS);
                body = utf8(object(fields));
            }
            case 6 -> {
                mutation = "deep nesting";
                int depth = 1 + random.nextInt(random.nextBoolean() ? 50 : 20_000);
                fields.get(at)[1] = "[".repeat(depth) + "1" + "]".repeat(depth);
                body = utf8(object(fields));
            }
            case 7 -> {
                mutation = "long string";
                fields.add(new String[] {"k".repeat(1 + random.nextInt(200)), "\"" + "x".repeat(random.nextInt(70_000)) + "\""});
                body = utf8(object(fields));
            }
            case 8 -> {
                mutation = "invalid UTF-8";
                byte[] valid = utf8(object(fields));
                body = insert(valid, 1 + random.nextInt(valid.length - 1), pickBytes(
                        new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                        new byte[] {(byte) 0xF0, (byte) 0x28, (byte) 0x8C, (byte) 0x28}, new byte[] {0}, new byte[] {(byte) 0xC0, (byte) 0xAF}));
            }
            case 9 -> {
                mutation = "truncated";
                byte[] valid = utf8(validBody());
                body = java.util.Arrays.copyOf(valid, random.nextInt(valid.length));
            }
            case 10 -> {
                mutation = "unknown key";
                fields.add(random.nextInt(fields.size() + 1), new String[] {pick("colour", "Seed", "seed ", "", "stalls", "\\u0073eed"), "1"});
                body = utf8(object(fields));
            }
            case 11 -> {
                mutation = "explicit stalls";
                body = utf8("{\"stalls\": " + pick("[]", "[{}]", "[{\"offset_ms\": -1, \"duration_ms\": 5}]",
                        "[{\"offset_ms\": 100, \"duration_ms\": 50}, {\"offset_ms\": 120, \"duration_ms\": 5}]",
                        "[{\"offset_ms\": 0, \"duration_ms\": 0}]", "[{\"offset_ms\": 1e308, \"duration_ms\": 5}]",
                        "[{\"offset_ms\": 500, \"duration_ms\": 5, \"x\": 1}]", "{}", "null", "[[1,2]]",
                        "[" + "{\"offset_ms\": 1, \"duration_ms\": 1},".repeat(3_000) + "{}]") + "}");
            }
            case 12 -> {
                mutation = "byte flip";
                body = utf8(object(fields));
                body[random.nextInt(body.length)] = (byte) random.nextInt(256);
                mayArm = true;
            }
            case 13 -> {
                mutation = "not an object";
                body = utf8(pick("[]", "\"arm\"", "42", "null", "true", "", " ", "[" + object(fields) + "]"));
            }
            case 14 -> {
                mutation = "trailing content";
                body = utf8(object(fields) + pick("x", "{}", " ,", "]", "\u0000", "\n{\"seed\": 1}"));
            }
            default -> {
                mutation = "kind";
                fields.removeIf(field -> field[0].equals("kind"));
                String kind = pick("\"BLOCK\"", "\"spin\"", "\"\"", "\"sleep\"", "1", "null", "\"block \"");
                fields.add(new String[] {"kind", kind});
                mayArm = kind.equals("\"spin\"");
                body = utf8(object(fields));
            }
        }
        Map<String, String> headers = Map.of("Content-Type", "application/json", "Authorization", "Bearer " + token);
        if (random.nextBoolean()) {
            return new Case(index, Family.ARM_BODY, mutation, null, "POST", "/arm", headers, body, mayArm);
        }
        return rawCase(Family.ARM_BODY, mutation, "POST", "/arm", List.of("Host: 127.0.0.1", "Content-Type: application/json",
                "Authorization: Bearer " + token, "Content-Length: " + body.length), body, mayArm);
    }

    private Case method() {
        String method = random.nextInt(8) == 0 ? randomToken(1 + random.nextInt(random.nextBoolean() ? 10 : 5_000)) : pick(METHODS);
        String path = pick(PATHS);
        byte[] body = utf8(validBody());
        boolean mayArm = method.equals("POST") && path.equals("/arm");
        return rawCase(Family.METHOD, method, method, path, List.of("Host: 127.0.0.1", "Content-Type: application/json",
                "Authorization: Bearer " + token, "Content-Length: " + body.length), body, mayArm);
    }

    private Case path() {
        String path = pick(ODD_PATHS);
        byte[] body = utf8(validBody());
        return rawCase(Family.PATH, "path", "POST", path, List.of("Host: 127.0.0.1", "Content-Type: application/json",
                "Authorization: Bearer " + token, "Content-Length: " + body.length), body, isArmWithoutQuery(path));
    }

    private static boolean isArmWithoutQuery(String target) {
        try {
            URI uri = new URI(target);
            return "/arm".equals(uri.getRawPath()) && (uri.getRawQuery() == null || uri.getRawQuery().isEmpty());
        } catch (Exception e) {
            return false;
        }
    }

    private Case query() {
        String path = pick("/stalls", "/stalls", "/stalls", "/pauses", "/pauses", "/clock", "/health", "/metrics", "/arm", "/disarm");
        StringBuilder query = new StringBuilder();
        int parameters = 1 + random.nextInt(3);
        for (int i = 0; i < parameters; i++) {
            if (i > 0) {
                query.append(pick("&", "&", "&&", ";"));
            }
            String name = pick("since_index", "since_index", "run_id", "run_id", "page", "", "since_index[]", "SINCE_INDEX", "run%5Fid");
            String value = name.startsWith("run") ? pick("", "x", "%00", "9f3c2a81d4e0-1", "-1", "%zz", "a".repeat(5_000), "%C3%28")
                    : pick(QUERY_VALUES);
            query.append(name).append(random.nextInt(10) == 0 ? "" : "=" + value);
        }
        String method = path.equals("/arm") || path.equals("/disarm") ? "POST" : "GET";
        byte[] body = path.equals("/arm") ? utf8(validBody()) : new byte[0];
        String target = path + "?" + query;
        return rawCase(Family.QUERY, path, method, target, List.of("Host: 127.0.0.1", "Content-Type: application/json",
                "Authorization: Bearer " + token, "Content-Length: " + body.length), body, method.equals("POST") && isArmWithoutQuery(target));
    }

    private Case headers() {
        byte[] body = utf8(validBody());
        List<String> headers = new ArrayList<>(List.of("Host: 127.0.0.1", "Content-Type: application/json",
                "Authorization: Bearer " + token, "Content-Length: " + body.length));
        boolean mayArm = false;
        String mutation;
        switch (random.nextInt(14)) {
            case 0 -> {
                mutation = "bad Content-Length";
                headers.set(3, "Content-Length: " + pick("-1", "abc", "", "99999999999999999999", "0x10", "1 2", "+5",
                        Integer.toString(body.length / 2), Integer.toString(body.length + 10), "0"));
            }
            case 1 -> {
                mutation = "two Content-Lengths";
                boolean same = random.nextBoolean();
                headers.add("Content-Length: " + (same ? body.length : body.length + 1));
                mayArm = same;
            }
            case 2 -> {
                mutation = "chunked";
                headers.set(3, "Transfer-Encoding: chunked");
                body = chunked(body);
                mayArm = true;
            }
            case 3 -> {
                mutation = "bad chunks";
                headers.set(3, "Transfer-Encoding: chunked");
                body = utf8(pick("zz\r\n{}\r\n0\r\n\r\n", "ffffffffffffffff\r\n{}", "2\r\n{}", "-1\r\n\r\n", "1\r\n{}}\r\n0\r\n\r\n",
                        Integer.toHexString(body.length) + "\r\n" + new String(body, StandardCharsets.UTF_8)));
            }
            case 4 -> {
                mutation = "chunked and Content-Length";
                headers.add("Transfer-Encoding: " + pick("chunked", "gzip", "chunked, gzip", "identity", "CHUNKED"));
            }
            case 5 -> {
                mutation = "missing Host";
                headers.remove(0);
                mayArm = true;
            }
            case 6 -> {
                mutation = "wrong token";
                headers.set(2, pick("Authorization: Bearer wrong", "Authorization: Bearer", "Authorization: Basic Zm9vOmJhcg==",
                        "Authorization: " + token, "Authorization: Bearer " + token + "x", "X-Token: " + token));
            }
            case 7 -> {
                mutation = "no token";
                headers.remove(2);
            }
            case 8 -> {
                mutation = "Expect: 100-continue";
                headers.add("Expect: " + pick("100-continue", "100-Continue", "200-ok"));
                mayArm = true;
            }
            case 9 -> {
                mutation = "Content-Type";
                String type = pick("text/plain", "application/json; charset=utf-8", "APPLICATION/JSON", "application/jsonx", "", "*/*",
                        "application/x-www-form-urlencoded");
                headers.set(1, "Content-Type: " + type);
                mayArm = true;
            }
            case 10 -> {
                mutation = "duplicated header";
                headers.add(headers.get(random.nextInt(3)));
                mayArm = true;
            }
            case 11 -> {
                mutation = "huge header";
                headers.add("X-Big: " + "b".repeat(random.nextInt(200_000)));
                mayArm = true;
            }
            case 12 -> {
                mutation = "malformed header line";
                headers.add(random.nextInt(headers.size()), pick("NoColon", ": empty name", " folded continuation", "X-Bin: \u00ff\u0001",
                        "X-A:\tb", "Bad Name: x", "\t"));
                mayArm = true;
            }
            default -> {
                mutation = "HTTP version";
                return rawRequest(Family.HEADERS, mutation, "POST", "/arm " + pick("HTTP/1.0", "HTTP/2.0", "HTTP/0.9", "HTTP/9.9", "http/1.1",
                        "HTTP/1.1 x", "HTTP/1"), headers, body, true); // the JDK server reads any version as 1.1
            }
        }
        return rawCase(Family.HEADERS, mutation, "POST", "/arm", headers, body, mayArm);
    }

    private Case garbage() {
        String mutation;
        byte[] raw;
        switch (random.nextInt(6)) {
            case 0 -> {
                mutation = "random bytes";
                raw = new byte[random.nextInt(4_000)];
                for (int i = 0; i < raw.length; i++) {
                    raw[i] = (byte) random.nextInt(256);
                }
            }
            case 1 -> {
                mutation = "random text lines";
                StringBuilder text = new StringBuilder();
                int lines = random.nextInt(30);
                for (int i = 0; i < lines; i++) {
                    text.append(randomToken(random.nextInt(80))).append(pick("\r\n", "\n", "\r", " "));
                }
                raw = text.toString().getBytes(StandardCharsets.ISO_8859_1);
            }
            case 2 -> {
                mutation = "HTTP/2 preface";
                raw = utf8("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
            }
            case 3 -> {
                mutation = "TLS hello";
                raw = new byte[] {0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01, 0x00, 0x00, (byte) 0xa1, 0x03, 0x03};
            }
            case 4 -> {
                mutation = "unterminated request";
                raw = utf8(pick("GET /health HTTP/1.1", "GET /health HTTP/1.1\r\nHost: x", "POST /arm HTTP/1.1\r\n", "\r\n\r\n", "G"));
            }
            default -> {
                mutation = "pipelined";
                raw = utf8(("GET /health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token + "\r\n\r\n").repeat(1 + random.nextInt(50))
                        + randomToken(random.nextInt(100)));
            }
        }
        return new Case(index, Family.GARBAGE, mutation, raw, null, null, null, null, false);
    }

    private Case valid() {
        Map<String, String> auth = Map.of("Authorization", "Bearer " + token);
        return switch (random.nextInt(8)) {
            case 0 -> new Case(index, Family.VALID, "arm", null, "POST", "/arm",
                    Map.of("Content-Type", "application/json", "Authorization", "Bearer " + token), utf8(validBody()), true);
            case 1 -> new Case(index, Family.VALID, "disarm", null, "POST", "/disarm", auth, new byte[0], false);
            case 2 -> new Case(index, Family.VALID, "stalls", null, "GET", "/stalls?since_index=" + random.nextInt(3), auth, null, false);
            default -> new Case(index, Family.VALID, "get", null, "GET", pick("/health", "/clock", "/metrics", "/pauses", "/stalls"), auth,
                    null, false);
        };
    }

    // ---- helpers ------------------------------------------------------------------------------------

    private Case rawCase(Family family, String mutation, String method, String target, List<String> headers, byte[] body, boolean mayArm) {
        return rawRequest(family, mutation, method, target + " HTTP/1.1", headers, body, mayArm);
    }

    private Case rawRequest(Family family, String mutation, String method, String targetAndVersion, List<String> headers, byte[] body,
                            boolean mayArm) {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        raw.writeBytes((method + " " + targetAndVersion + "\r\n").getBytes(StandardCharsets.UTF_8));
        for (String header : headers) {
            raw.writeBytes((header + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        raw.writeBytes(utf8("\r\n"));
        raw.writeBytes(body);
        return new Case(index, family, mutation, raw.toByteArray(), null, null, null, null, mayArm);
    }

    private static byte[] chunked(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < body.length) {
            int size = Math.min(7, body.length - at);
            out.writeBytes(utf8(Integer.toHexString(size) + "\r\n"));
            out.write(body, at, size);
            out.writeBytes(utf8("\r\n"));
            at += size;
        }
        out.writeBytes(utf8("0\r\n\r\n"));
        return out.toByteArray();
    }

    private String randomToken(int length) {
        StringBuilder token = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            token.append((char) (0x21 + random.nextInt(0x7e - 0x21)));
        }
        return token.toString();
    }

    @SafeVarargs
    private <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private byte[] pickBytes(byte[]... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static byte[] insert(byte[] into, int at, byte[] bytes) {
        byte[] all = new byte[into.length + bytes.length];
        System.arraycopy(into, 0, all, 0, at);
        System.arraycopy(bytes, 0, all, at, bytes.length);
        System.arraycopy(into, at, all, at + bytes.length, into.length - at);
        return all;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
