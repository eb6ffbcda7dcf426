package io.loadsmith.tester.client.jetty;

import io.loadsmith.tester.grpc.GrpcException;
import io.loadsmith.tester.grpc.GrpcHeaders;
import io.loadsmith.tester.grpc.GrpcStatus;
import io.loadsmith.tester.grpc.GrpcTarget;
import io.loadsmith.tester.grpc.ProtoSet;
import io.loadsmith.tester.grpc.ServerReflection;
import io.loadsmith.tester.transport.TransportOptions;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;

/**
 * {@link ServerReflection} over HTTP/2 with a Jetty client of its own, started for the look-up and stopped
 * after it: the scenario's {@code target.grpc: {reflection: true}}, read before the run (not a load
 * transport, and blocking).
 */
public final class GrpcReflection {

    private GrpcReflection() {
    }

    /**
     * The services of a {@code grpc://} or {@code grpcs://} target, trusted as {@code tls} says.
     *
     * @param timeoutNanos the most each call of the look-up may take, connecting included
     * @throws GrpcException when the server cannot be reached, refuses reflection, or answers what does not
     *                       make a descriptor set
     */
    public static ProtoSet fetch(URI target, TransportOptions.Tls tls, long timeoutNanos) {
        ClientConnector connector = new ClientConnector();
        connector.setSslContextFactory(JettyTransport.sslContextFactory(tls));
        HttpClient client = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client(connector)));
        client.setConnectTimeout(TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
        try {
            client.start();
            return ServerReflection.fetch((path, body) -> call(client, target, path, body, timeoutNanos));
        } catch (GrpcException e) {
            throw e;
        } catch (Exception e) {
            throw new GrpcException("cannot start an HTTP/2 client: " + e.getMessage(), e);
        } finally {
            try {
                client.stop();
            } catch (Exception e) {
                // best effort: the look-up is over
            }
        }
    }

    private static byte[] call(HttpClient client, URI target, String path, byte[] body, long timeoutNanos) {
        ContentResponse response;
        try {
            response = client.newRequest(GrpcTarget.httpUrl(target).resolve(path))
                    .method("POST")
                    .headers(h -> GrpcHeaders.request(Map.of(), 0).forEach(h::put))
                    .body(new BytesRequestContent(GrpcHeaders.CONTENT_TYPE, body))
                    .timeout(timeoutNanos, TimeUnit.NANOSECONDS)
                    .send();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GrpcException("was interrupted", e);
        } catch (TimeoutException e) {
            throw new GrpcException("had no answer from " + target + " within "
                    + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms", e);
        } catch (ExecutionException e) {
            throw new GrpcException("cannot reach " + target + " (" + e.getCause() + ")", e);
        }
        HttpFields fields = JettyTransport.grpcStatusFields(response);
        GrpcStatus status = GrpcStatus.ofAnswer(response.getStatus(), fields.get(GrpcHeaders.STATUS));
        if (status != GrpcStatus.OK) {
            throw new ServerReflection.GrpcCallException(status, GrpcStatus.message(fields.get(GrpcHeaders.MESSAGE)));
        }
        return response.getContent();
    }
}
