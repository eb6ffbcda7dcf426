package io.loadsmith.tester.transport;

import io.netty.buffer.ByteBuf;

/**
 * A request whose URI, headers and body are filled from a data row only where it is sent: the
 * {@link RequestSpec#template()} of a spec that carries the row ({@link RequestSpec#row()}). A transport
 * that writes HTTP/1.1 itself calls {@link #encode}, which writes the row's values straight into its buffer;
 * any other calls {@link RequestSpec#rendered()}. Both give the same request.
 */
public interface RequestTemplate {

    /**
     * The request of {@code spec}'s row with its URI, headers and body rendered; method, check,
     * connection and step are {@code spec}'s.
     */
    RequestSpec render(RequestSpec spec);

    /**
     * Appends the HTTP/1.1 bytes of {@code spec}'s row to {@code out}: byte for byte those that
     * {@code client.http1.RequestEncoder} writes for {@link #render}{@code (spec)}. Never throws for a
     * row it was given: a template is only handed rows it can write.
     */
    void encode(RequestSpec spec, ByteBuf out);
}
