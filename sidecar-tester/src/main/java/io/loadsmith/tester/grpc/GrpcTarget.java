package io.loadsmith.tester.grpc;

import java.net.URI;

/**
 * The URLs of gRPC calls: {@code grpc://HOST:PORT/pkg.Service/Method} is the HTTP/2 request
 * {@code http://HOST:PORT/pkg.Service/Method} (h2c), {@code grpcs://} the same over TLS ({@code https://}).
 */
public final class GrpcTarget {

    private GrpcTarget() {
    }

    /** Whether {@code url} is a gRPC call's ({@code grpc://} or {@code grpcs://}). */
    public static boolean isGrpc(URI url) {
        String scheme = url.getScheme();
        return "grpc".equals(scheme) || "grpcs".equals(scheme);
    }

    /** The HTTP/2 request URL of a call's {@code url}. */
    public static URI httpUrl(URI url) {
        String http = "grpcs".equals(url.getScheme()) ? "https" : "http";
        return URI.create(http + url.toString().substring(url.getScheme().length()));
    }
}
