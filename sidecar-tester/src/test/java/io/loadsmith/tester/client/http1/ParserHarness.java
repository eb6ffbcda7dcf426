package io.loadsmith.tester.client.http1;

import io.loadsmith.tester.client.http1.ResponseParser.Limits;
import io.loadsmith.tester.client.http1.ResponseParser.Result;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Feeds a wire image to a {@link ResponseParser} in chunks, the way a connection's reads would: into one
 * cumulative buffer whose read bytes are discarded every other read (so the reader index is sometimes
 * 0 and sometimes not), beginning the next response on the same buffer after each COMPLETE.
 */
final class ParserHarness {

    /** What the parser said about one response. body: the kept body as ISO-8859-1. */
    record Parsed(Result result, int status, boolean keepAlive, long bodyBytes, String body, ParseError error) {

        static Parsed complete(int status, boolean keepAlive, long bodyBytes, String body) {
            return new Parsed(Result.COMPLETE, status, keepAlive, bodyBytes, body, null);
        }

        static Parsed error(ParseError error, int status, long bodyBytes) {
            return error(error, status, bodyBytes, "");
        }

        static Parsed error(ParseError error, int status, long bodyBytes, String keptSoFar) {
            return new Parsed(Result.ERROR, status, false, bodyBytes, keptSoFar, error);
        }
    }

    /** Every response parsed, in order, and the bytes left unread in the buffer at the end. */
    record Run(List<Parsed> responses, String leftover) {
    }

    /** How to feed a wire image. */
    record Feed(Limits limits, boolean head, boolean keepBody, int responses, boolean closeAtEnd) {

        static Feed of() {
            return new Feed(Limits.defaults(), false, true, 1, true);
        }

        Feed limits(Limits l) {
            return new Feed(l, head, keepBody, responses, closeAtEnd);
        }

        Feed forHead() {
            return new Feed(limits, true, keepBody, responses, closeAtEnd);
        }

        Feed countOnly() {
            return new Feed(limits, head, false, responses, closeAtEnd);
        }

        Feed responses(int n) {
            return new Feed(limits, head, keepBody, n, closeAtEnd);
        }

        Feed open() {
            return new Feed(limits, head, keepBody, responses, false);
        }
    }

    private ParserHarness() {
    }

    /**
     * Asserts that the wire image parses to expected whole, split in two at every byte boundary, and byte
     * by byte. Returns the number of runs checked.
     */
    static int assertParses(String wire, Feed feed, Run expected) {
        byte[] bytes = wire.getBytes(StandardCharsets.ISO_8859_1);
        assertThat(run(bytes, feed, new int[0])).as("whole").isEqualTo(expected);
        for (int cut = 1; cut < bytes.length; cut++) {
            assertThat(run(bytes, feed, new int[] {cut})).as("split at byte %d", cut).isEqualTo(expected);
        }
        int[] everyByte = new int[Math.max(0, bytes.length - 1)];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = i + 1;
        }
        assertThat(run(bytes, feed, everyByte)).as("byte by byte").isEqualTo(expected);
        return bytes.length + 1;
    }

    static Run run(byte[] bytes, Feed feed, int[] cuts) {
        ResponseParser parser = new ResponseParser(feed.limits());
        parser.begin(feed.head(), feed.keepBody());
        List<Parsed> responses = new ArrayList<>();
        ByteBuf buffer = Unpooled.buffer();
        buffer.writeBytes(new byte[] {'x', 'y', 'z'}).skipBytes(3);
        boolean done = false;
        int from = 0;
        for (int chunk = 0; chunk <= cuts.length; chunk++) {
            int to = chunk < cuts.length ? cuts[chunk] : bytes.length;
            buffer.writeBytes(bytes, from, to - from);
            from = to;
            while (!done) {
                Result result = parser.parse(buffer);
                if (result == Result.NEED_MORE) {
                    break;
                }
                responses.add(snapshot(parser, result));
                done = result == Result.ERROR || responses.size() == feed.responses();
                if (!done) {
                    parser.begin(feed.head(), feed.keepBody());
                }
            }
            if (chunk % 2 == 1) {
                buffer.discardReadBytes();
            }
        }
        if (!done) {
            responses.add(snapshot(parser, feed.closeAtEnd() ? parser.closed() : Result.NEED_MORE));
        }
        String leftover = buffer.toString(StandardCharsets.ISO_8859_1);
        buffer.release();
        return new Run(responses, leftover);
    }

    private static Parsed snapshot(ResponseParser parser, Result result) {
        assertThat(parser.result()).isEqualTo(result);
        assertThat(parser.error() == null).as("error() is null unless ERROR").isEqualTo(result != Result.ERROR);
        assertThat(parser.errorDetail() == null).as("errorDetail() is null unless ERROR").isEqualTo(result != Result.ERROR);
        return new Parsed(result, parser.status(), parser.keepAlive(), parser.bodyBytes(),
                new String(parser.body(), StandardCharsets.ISO_8859_1), parser.error());
    }
}
