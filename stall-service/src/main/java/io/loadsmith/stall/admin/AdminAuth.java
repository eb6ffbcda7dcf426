package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The bearer token of an admin server: every call must send {@code Authorization: Bearer TOKEN}, compared
 * in constant time (SHA-256 of both, so not even the token's length shows), or is answered 401.
 * Immutable; without a token every call is let through.
 */
final class AdminAuth {

    private static final AdminAuth OPEN = new AdminAuth(null);

    /** SHA-256 of the token, or null: no token. */
    private final byte[] tokenHash;

    private AdminAuth(byte[] tokenHash) {
        this.tokenHash = tokenHash;
    }

    /**
     * The token of {@code config}, given as such or in a token file.
     *
     * @throws IllegalArgumentException if both are given, or the token file is refused ({@link TokenFile#read})
     */
    static AdminAuth of(AdminConfig config) {
        String token = config.token();
        if (config.tokenFile() != null) {
            if (token != null) {
                throw new IllegalArgumentException("admin: give a token or a token file, not both");
            }
            try {
                token = TokenFile.read(config.tokenFile());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("tokenFile: " + e.getMessage(), e);
            }
        }
        return token == null ? OPEN : new AdminAuth(sha256(token));
    }

    boolean needsToken() {
        return tokenHash != null;
    }

    /** Lets the call through, or refuses it with 401 and a {@code WWW-Authenticate} header. */
    void authorize(HttpExchange exchange) throws AdminError {
        if (tokenHash == null) {
            return;
        }
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        String given = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).strip() : "";
        if (!MessageDigest.isEqual(tokenHash, sha256(given))) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"loadsmith\"");
            throw new AdminError(401, header == null
                    ? "missing token: send the header Authorization: Bearer TOKEN"
                    : "wrong token");
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
