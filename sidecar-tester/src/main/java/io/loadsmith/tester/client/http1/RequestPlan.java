package io.loadsmith.tester.client.http1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A request whose URI, headers and body are texts with holes, each hole a column of a data row: its
 * literal parts encoded to bytes once, at {@link PlanBuilder#build()}, so that {@link #encode} only copies them
 * and writes the row's values between them into the buffer (no String, URI or array per request).
 *
 * <p>The bytes are those {@link RequestEncoder} writes for the same request rendered as text (each hole
 * replaced by its value), for every row whose values fit where they go: {@link #fitsTarget} for a value in
 * the URI, {@link #fitsHeader} in a header, {@link #fitsBody} in the body. A value in the URI is written as
 * {@code RequestEncoder} writes a path (ASCII as is, anything else percent-encoded as UTF-8); in a header or
 * the body as UTF-8; the Content-Length is summed from the parts. The caller checks its rows and renders a
 * row that does not fit as text, which keeps every odd case (a {@code ?}, {@code #} or space in a value)
 * exactly as it was.
 *
 * <pre>{@code
 * RequestPlan plan = RequestPlan.builder("POST")
 *         .target(List.of("http://127.0.0.1:8080/score/", ""), new int[] {0})      // .../score/${id}
 *         .header("Content-Type", List.of("application/json"), new int[0])
 *         .body(List.of("{\"id\":\"", "\"}"), new int[] {0})
 *         .build();
 * plan.encode(row, buf);                                                           // row[0] fills both holes
 * }</pre>
 *
 * Immutable; {@link #encode} may be called from any thread.
 */
public final class RequestPlan {

    private static final byte[] JSON = RequestEncoder.ascii("application/json");
    private static final byte[] TEXT = RequestEncoder.ascii("text/plain; charset=utf-8");
    /** ASCII that java.net.URI takes as is in a path and in a query, and that changes neither's bounds. */
    private static final boolean[] PLAIN_IN_TARGET = new boolean[128];

    static {
        String plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!~*'();:@&=+$,/";
        for (int i = 0; i < plain.length(); i++) {
            PLAIN_IN_TARGET[plain.charAt(i)] = true;
        }
    }

    private final URI endpoint;
    private final byte[][] headLiterals;
    private final int[] headColumns;
    private final boolean[] headInTarget;
    private final boolean guessType;
    private final boolean writeLength;
    private final byte[][] bodyLiterals; // null: no body
    private final int[] bodyColumns;

    private RequestPlan(PlanBuilder b, byte[][] headLiterals, int[] headColumns, boolean[] headInTarget) {
        this.endpoint = b.endpoint;
        this.headLiterals = headLiterals;
        this.headColumns = headColumns;
        this.headInTarget = headInTarget;
        this.guessType = b.bodyLiterals != null && !b.hasContentType;
        this.writeLength = b.bodyLiterals != null || b.method.equals("POST") || b.method.equals("PUT");
        this.bodyLiterals = b.bodyLiterals;
        this.bodyColumns = b.bodyColumns;
    }

    /** A request with this method (a token, else {@link PlanBuilder#build()} refuses it). */
    public static PlanBuilder builder(String method) {
        return new PlanBuilder(method);
    }

    /** The URI of the endpoint (scheme, user info, host and port, then {@code /}): the same for every row. */
    public URI endpoint() {
        return endpoint;
    }

    /** Appends the request of {@code row} (the values of a data row, by column) to {@code out}. */
    public void encode(String[] row, ByteBuf out) {
        int holes = headColumns.length;
        for (int i = 0; i < holes; i++) {
            out.writeBytes(headLiterals[i]);
            String value = row[headColumns[i]];
            if (headInTarget[i]) {
                RequestEncoder.writeUriPart(out, value);
            } else {
                ByteBufUtil.writeUtf8(out, value);
            }
        }
        out.writeBytes(headLiterals[holes]);
        if (guessType) {
            out.writeBytes(RequestEncoder.CONTENT_TYPE);
            out.writeBytes(looksLikeJson(row) ? JSON : TEXT);
            RequestEncoder.crlf(out);
        }
        if (writeLength) {
            out.writeBytes(RequestEncoder.CONTENT_LENGTH);
            RequestEncoder.writeDecimal(out, bodyBytes(row));
            RequestEncoder.crlf(out);
        }
        RequestEncoder.crlf(out);
        if (bodyLiterals != null) {
            for (int i = 0; i < bodyColumns.length; i++) {
                out.writeBytes(bodyLiterals[i]);
                ByteBufUtil.writeUtf8(out, row[bodyColumns[i]]);
            }
            out.writeBytes(bodyLiterals[bodyColumns.length]);
        }
    }

    private long bodyBytes(String[] row) {
        if (bodyLiterals == null) {
            return 0;
        }
        long bytes = 0;
        for (int i = 0; i < bodyColumns.length; i++) {
            bytes += bodyLiterals[i].length + ByteBufUtil.utf8Bytes(row[bodyColumns[i]]);
        }
        return bytes + bodyLiterals[bodyColumns.length].length;
    }

    /** {@code RequestSpec.contentType()}'s guess: the first byte that is not white space is { or [. */
    private boolean looksLikeJson(String[] row) {
        for (int i = 0; i <= bodyColumns.length; i++) {
            int verdict = firstNonSpace(bodyLiterals[i]);
            if (verdict < 0 && i < bodyColumns.length) {
                verdict = firstNonSpace(row[bodyColumns[i]]);
            }
            if (verdict >= 0) {
                return verdict == '{' || verdict == '[';
            }
        }
        return false;
    }

    private static int firstNonSpace(byte[] bytes) {
        for (byte b : bytes) {
            if (!Character.isWhitespace(b)) {
                return b & 0xFF;
            }
        }
        return -1;
    }

    private static int firstNonSpace(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x80 || !Character.isWhitespace(c)) {
                return c;
            }
        }
        return -1;
    }

    /**
     * Whether a value in the URI is written as it would be in the text of the URI: only letters, digits,
     * {@code -_.!~*'();:@&=+$,/} and non-ASCII characters that java.net.URI takes in a path (not a control
     * or space character), no unpaired surrogate. Not: {@code ? # % [ ]}, space and other ASCII.
     */
    public static boolean fitsTarget(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x80 ? !PLAIN_IN_TARGET[c] : Character.isISOControl(c) || Character.isSpaceChar(c)) {
                return false;
            }
        }
        return fitsBody(value);
    }

    /** Whether a value fits a header: no CR, LF or NUL, no unpaired surrogate. */
    public static boolean fitsHeader(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                return false;
            }
        }
        return fitsBody(value);
    }

    /** Whether a value fits the body: no unpaired surrogate (it could pair with a neighbour's). */
    public static boolean fitsBody(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Collects a request's parts. Each part is a text with holes: {@code literals} (one more than the
     * holes) and the data column of each hole. {@link #build()} throws {@link IllegalArgumentException}
     * when the parts cannot be planned (the caller then renders every row as text).
     */
    public static final class PlanBuilder {
        private final String method;
        private URI endpoint;
        private List<String> targetLiterals;
        private int[] targetColumns;
        private final List<String> headerNames = new ArrayList<>();
        private final List<List<String>> headerLiterals = new ArrayList<>();
        private final List<int[]> headerColumns = new ArrayList<>();
        private boolean hasHost;
        private boolean hasContentType;
        private byte[][] bodyLiterals;
        private int[] bodyColumns;

        private PlanBuilder(String method) {
            this.method = method;
        }

        /**
         * The absolute URI ({@code http://} or {@code https://}) with holes, which must all come after its
         * authority, and no {@code #} in it.
         */
        public PlanBuilder target(List<String> literals, int[] columns) {
            this.targetLiterals = literals;
            this.targetColumns = columns;
            return this;
        }

        /** A header, in the order the request sends them (a Content-Length is left out, as the encoder does). */
        public PlanBuilder header(String name, List<String> literals, int[] columns) {
            headerNames.add(name);
            headerLiterals.add(literals);
            headerColumns.add(columns);
            hasHost |= name.equalsIgnoreCase("Host");
            hasContentType |= name.equalsIgnoreCase("Content-Type");
            return this;
        }

        /** The body (none unless given). */
        public PlanBuilder body(List<String> literals, int[] columns) {
            checkParts(literals, columns);
            byte[][] bytes = new byte[literals.size()][];
            for (int i = 0; i < bytes.length; i++) {
                checkLiteral(literals.get(i));
                bytes[i] = literals.get(i).getBytes(StandardCharsets.UTF_8);
            }
            this.bodyLiterals = bytes;
            this.bodyColumns = columns.clone();
            return this;
        }

        public RequestPlan build() {
            if (targetLiterals == null) {
                throw new IllegalArgumentException("no target");
            }
            checkParts(targetLiterals, targetColumns);
            Head head = new Head();
            ByteBuf bytes = head.bytes;
            try {
                RequestEncoder.writeToken(bytes, method, "method");
                bytes.writeByte(' ');
                writeTarget(head);
                bytes.writeBytes(RequestEncoder.VERSION_LINE);
                if (!hasHost) {
                    bytes.writeBytes(RequestEncoder.HOST);
                    RequestEncoder.writeHost(bytes, endpoint);
                    RequestEncoder.crlf(bytes);
                }
                for (int h = 0; h < headerNames.size(); h++) {
                    String name = headerNames.get(h);
                    if (name.equalsIgnoreCase("Content-Length")) {
                        continue;
                    }
                    RequestEncoder.writeToken(bytes, name, "header name");
                    bytes.writeBytes(RequestEncoder.SEPARATOR);
                    List<String> literals = headerLiterals.get(h);
                    int[] columns = headerColumns.get(h);
                    checkParts(literals, columns);
                    for (int i = 0; i < literals.size(); i++) {
                        checkLiteral(literals.get(i));
                        RequestEncoder.writeValue(bytes, name, literals.get(i));
                        if (i < columns.length) {
                            head.hole(columns[i], false);
                        }
                    }
                    RequestEncoder.crlf(bytes);
                }
                return head.plan(this);
            } finally {
                bytes.release();
            }
        }

        /** Request target: from the end of the authority, {@code /} first when the path is empty. */
        private void writeTarget(Head head) {
            StringBuilder probe = new StringBuilder();
            for (int i = 0; i < targetLiterals.size(); i++) {
                String literal = targetLiterals.get(i);
                checkLiteral(literal);
                if (literal.indexOf('#') >= 0) {
                    throw new IllegalArgumentException("a # in the URI");
                }
                probe.append(literal).append(i < targetColumns.length ? "x" : "");
            }
            URI uri = URI.create(probe.toString());
            String first = targetLiterals.get(0);
            int authority = first.indexOf("://") + 3;
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                    || authority < 3) {
                throw new IllegalArgumentException("not an http:// or https:// URI with a host: " + probe);
            }
            int end = authority;
            while (end < first.length() && first.charAt(end) != '/' && first.charAt(end) != '?') {
                end++;
            }
            if (end == first.length() || !first.substring(authority, end).equals(uri.getRawAuthority())) {
                throw new IllegalArgumentException("a value in the authority of " + probe);
            }
            endpoint = URI.create(first.substring(0, end) + "/");
            if (uri.getRawPath() == null || uri.getRawPath().isEmpty()) {
                head.bytes.writeByte('/');
            }
            for (int i = 0; i < targetLiterals.size(); i++) {
                RequestEncoder.writeUriPart(head.bytes, i == 0 ? first.substring(end) : targetLiterals.get(i));
                if (i < targetColumns.length) {
                    head.hole(targetColumns[i], true);
                }
            }
        }

        private static void checkParts(List<String> literals, int[] columns) {
            if (literals.size() != columns.length + 1) {
                throw new IllegalArgumentException(literals.size() + " literals around " + columns.length + " holes");
            }
        }

        private static void checkLiteral(String literal) {
            if (!fitsBody(literal)) {
                throw new IllegalArgumentException("an unpaired surrogate in " + literal);
            }
        }
    }

    /** The head's bytes so far, cut at each hole. */
    private static final class Head {
        final ByteBuf bytes = Unpooled.buffer(256);
        final List<byte[]> literals = new ArrayList<>();
        final List<Integer> columns = new ArrayList<>();
        final List<Boolean> inTarget = new ArrayList<>();

        void hole(int column, boolean target) {
            literals.add(ByteBufUtil.getBytes(bytes));
            bytes.clear();
            columns.add(column);
            inTarget.add(target);
        }

        RequestPlan plan(PlanBuilder builder) {
            literals.add(ByteBufUtil.getBytes(bytes));
            int[] cols = new int[columns.size()];
            boolean[] target = new boolean[columns.size()];
            for (int i = 0; i < cols.length; i++) {
                cols[i] = columns.get(i);
                target[i] = inTarget.get(i);
            }
            return new RequestPlan(builder, literals.toArray(new byte[0][]), cols, target);
        }
    }
}
