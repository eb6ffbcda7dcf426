package io.loadsmith.tester.client.http1;

import io.loadsmith.tester.client.http1.ResponseParser.Limits;
import io.loadsmith.tester.client.http1.ResponseParser.Result;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The parser allocates nothing per response once warm: measured with the thread's allocation counter. */
class ResponseParserAllocationTest {

    private static final int WARM_UP = 200_000;
    private static final int MEASURED = 100_000;

    @Test
    void a_steady_state_parse_allocates_nothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        ByteBuf in = Unpooled.directBuffer().writeBytes(("HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nDate: Tue, 01 Dec 2026 14:00:00 GMT\r\nContent-Type: text/plain\r\n"
                + "Content-Length: 5\r\nConnection: keep-alive\r\n\r\nhello"
                + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nX-T: 1\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        ResponseParser parser = new ResponseParser(Limits.defaults());
        long checksum = parseAll(parser, in, WARM_UP);
        long before = threads.getCurrentThreadAllocatedBytes();
        checksum += parseAll(parser, in, MEASURED);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        in.release();

        assertThat(checksum).isEqualTo((WARM_UP + MEASURED) * 10L);
        assertThat(allocated).as("bytes allocated by %d parses (two responses each)", MEASURED).isLessThan(MEASURED);
    }

    /** Parses the two responses in `in` `times` times; returns the body bytes seen. */
    private static long parseAll(ResponseParser parser, ByteBuf in, int times) {
        long bodyBytes = 0;
        for (int i = 0; i < times; i++) {
            in.readerIndex(0);
            for (int response = 0; response < 2; response++) {
                parser.begin(false, false);
                if (parser.parse(in) != Result.COMPLETE || parser.status() != 200 || !parser.keepAlive()) {
                    throw new AssertionError("not parsed: " + parser.error() + " " + parser.errorDetail());
                }
                bodyBytes += parser.bodyBytes();
            }
        }
        return bodyBytes;
    }
}
