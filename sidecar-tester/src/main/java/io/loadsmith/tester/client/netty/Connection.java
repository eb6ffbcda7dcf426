package io.loadsmith.tester.client.netty;

import io.loadsmith.tester.client.http1.ResponseParser;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.ResponseCheck;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.concurrent.Future;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * One of the transport's connection slots (a tester's connection k, or one of the open model's pool) and
 * the handler of its current channel. A slot outlives its channels: when one closes, the slot's next
 * request opens another. At most one request is in flight on it. Loop thread only.
 */
@ChannelHandler.Sharable // one channel at a time; events of a channel already replaced are ignored
final class Connection extends ChannelInboundHandlerAdapter {

    private final NettyTransport transport;
    final int index;
    final boolean pooled;
    private final ResponseParser parser = new ResponseParser(ResponseParser.Limits.defaults());
    private final Runnable releaseTask = this::release;
    /** Requests waiting for this (dedicated) connection while it is busy; rare. */
    ArrayDeque<NettyTransport.Waiting> queue;

    private Channel channel;
    private URI endpoint;
    private boolean ready;
    private boolean everOpened;
    private long connectStartNanos;
    private ByteBuf cumulation;

    boolean busy;
    private RequestSpec spec;
    Exchange exchange;
    long startNanos;
    private boolean written;
    private long generation;

    Connection(NettyTransport transport, int index, boolean pooled) {
        this.transport = transport;
        this.index = index;
        this.pooled = pooled;
    }

    ArrayDeque<NettyTransport.Waiting> queue() {
        if (queue == null) {
            queue = new ArrayDeque<>();
        }
        return queue;
    }

    /** Takes a request: writes it now on an open connection, or after opening one. */
    void assign(RequestSpec request, Exchange ex, long sendCallNanos) {
        busy = true;
        spec = request;
        exchange = ex;
        startNanos = sendCallNanos;
        written = false;
        generation++;
        URI uri = request.uri();
        if (ready && channel != null && channel.isActive() && sameEndpoint(uri)) {
            write();
        } else {
            connect(uri);
        }
    }

    private boolean sameEndpoint(URI uri) {
        if (uri == endpoint) {
            return true;
        }
        if (Objects.equals(uri.getScheme(), endpoint.getScheme()) && Objects.equals(uri.getHost(), endpoint.getHost())
                && NettyTransport.port(uri) == NettyTransport.port(endpoint)) {
            endpoint = uri;
            return true;
        }
        return false;
    }

    private void connect(URI uri) {
        disconnect();
        endpoint = uri;
        connectStartNanos = transport.nanoTime();
        boolean https = "https".equals(uri.getScheme());
        Bootstrap bootstrap = new Bootstrap();
        NettyTransport.configure(bootstrap, transport);
        bootstrap.handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                if (https) {
                    SslHandler tls = transport.ssl().newHandler(ch.alloc(), uri.getHost(), NettyTransport.port(uri));
                    tls.setHandshakeTimeoutMillis(transport.connectTimeoutMillis());
                    ch.pipeline().addLast(tls);
                }
                ch.pipeline().addLast(Connection.this);
            }
        });
        ChannelFuture connecting;
        try {
            connecting = bootstrap.connect(transport.address(uri));
        } catch (RuntimeException e) {
            connectFailed(null, e);
            return;
        }
        Channel ch = connecting.channel();
        channel = ch;
        connecting.addListener(f -> onConnect(ch, f, https));
    }

    private void onConnect(Channel ch, Future<?> connected, boolean https) {
        if (ch != channel) {
            return;
        }
        if (!connected.isSuccess()) {
            connectFailed(ch, connected.cause());
            return;
        }
        if (https) {
            ch.pipeline().get(SslHandler.class).handshakeFuture().addListener(h -> {
                if (ch != channel) {
                    return;
                }
                if (h.isSuccess()) {
                    opened();
                } else {
                    connectFailed(ch, h.cause());
                }
            });
            return;
        }
        opened();
    }

    private void opened() {
        ready = true;
        transport.connected(transport.nanoTime() - connectStartNanos, everOpened);
        everOpened = true;
        if (exchange != null && !written) {
            write();
        }
    }

    private void connectFailed(Channel ch, Throwable cause) {
        transport.connectFailed();
        if (ch != null) {
            ch.close();
        }
        channel = null;
        ready = false;
        Outcome outcome = cause instanceof SslHandshakeTimeoutException ? Outcome.TIMEOUT
                : NettyTransport.classifyConnectFailure(cause);
        String where = endpoint.getHost() + ":" + NettyTransport.port(endpoint);
        String detail = (cause instanceof javax.net.ssl.SSLException ? "TLS handshake with " : "cannot connect to ")
                + where + ": " + cause;
        if (exchange != null) {
            // release later: the next waiting request must not connect (and maybe fail) inside this call
            end(transport.nanoTime(), 0, outcome, detail, false);
        }
    }

    private void write() {
        long gen = generation;
        Exchange ex = exchange;
        parser.begin("HEAD".equals(spec.method()), spec.check() != null);
        written = true;
        ByteBuf bytes = transport.encoded(spec);
        channel.writeAndFlush(bytes, channel.voidPromise());
        long sentNanos = transport.nanoTime();
        if (gen == generation && exchange == ex) { // not already failed by the write
            transport.countSent();
            ex.sent(sentNanos);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (ctx.channel() != channel) {
            in.release();
            return;
        }
        if (exchange == null || !written) {
            in.release(); // bytes nobody asked for: the connection cannot be trusted any more
            disconnect();
            return;
        }
        if (cumulation != null) {
            cumulation.writeBytes(in);
            in.release();
            in = cumulation;
            cumulation = null;
        }
        ResponseParser.Result result;
        try {
            result = parser.parse(in);
        } catch (RuntimeException e) {
            in.release();
            fail(transport.nanoTime(), Outcome.BAD_RESPONSE, "cannot parse the response: " + e);
            return;
        }
        switch (result) {
            case NEED_MORE -> {
                if (in.isReadable()) {
                    ByteBuf keep = ctx.alloc().buffer(Math.max(256, in.readableBytes() * 2));
                    keep.writeBytes(in);
                    cumulation = keep;
                }
                in.release();
            }
            case COMPLETE -> {
                long endNanos = transport.nanoTime();
                boolean reuse = parser.keepAlive() && !in.isReadable();
                in.release();
                respond(endNanos, reuse);
            }
            case ERROR -> {
                long endNanos = transport.nanoTime();
                in.release();
                fail(endNanos, Outcome.BAD_RESPONSE, parser.error() + ": " + parser.errorDetail());
            }
        }
    }

    /** A whole response arrived: decide its outcome (running the check, if any) and end the exchange. */
    private void respond(long endNanos, boolean reuse) {
        int status = parser.status();
        ResponseCheck check = spec.check();
        String detail = ResponseCheck.verdict(check, status, check == null ? null : parser.body());
        Outcome outcome = Outcome.ofResponse(status, detail);
        exchange.servedBy(parser.servedBy());
        if (!reuse) {
            disconnect();
        }
        end(endNanos, status, outcome, detail, true);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel() != channel) {
            return;
        }
        channel = null;
        ready = false;
        releaseCumulation();
        if (exchange == null) {
            return;
        }
        long now = transport.nanoTime();
        if (!written) {
            fail(now, Outcome.RESET, "the connection closed before the request was written");
        } else if (parser.closed() == ResponseParser.Result.COMPLETE) {
            respond(now, false);
        } else {
            fail(now, Outcome.RESET, "the connection closed: " + parser.error());
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel() != channel) {
            ctx.close();
            return;
        }
        if (!ready) {
            connectFailed(ctx.channel(), cause);
            return;
        }
        fail(transport.nanoTime(), NettyTransport.classifyFailure(cause), String.valueOf(cause));
    }

    /** Ends the exchange in flight (if any) with a failure and closes the connection. */
    void fail(long nowNanos, Outcome outcome, String detail) {
        disconnect();
        if (exchange != null) {
            int status = outcome == Outcome.RESET || outcome == Outcome.BAD_RESPONSE ? parser.status() : 0;
            end(nowNanos, written ? status : 0, outcome, detail, true);
        }
    }

    /** Ends the exchange in flight and frees the connection for the next request, now or as a task. */
    private void end(long endNanos, int status, Outcome outcome, String detail, boolean releaseNow) {
        Exchange ex = exchange;
        exchange = null;
        spec = null;
        written = false;
        transport.complete(ex, endNanos, status, outcome, detail);
        if (releaseNow) {
            release();
        } else {
            transport.eventLoop().execute(releaseTask);
        }
    }

    private void release() {
        transport.release(this);
    }

    /** Closes the current channel, if any; the slot's next request opens a new one. */
    void disconnect() {
        releaseCumulation();
        if (channel != null) {
            Channel ch = channel;
            channel = null;
            ready = false;
            ch.close();
        }
    }

    private void releaseCumulation() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }
}
