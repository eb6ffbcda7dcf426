package io.loadsmith.tester.client.http1;

import io.loadsmith.tester.client.http1.ParserHarness.Feed;
import io.loadsmith.tester.client.http1.ParserHarness.Parsed;
import io.loadsmith.tester.client.http1.ParserHarness.Run;
import io.loadsmith.tester.client.http1.ResponseParser.Limits;
import io.loadsmith.tester.client.http1.ResponseParser.Result;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.loadsmith.tester.client.http1.ParserHarness.assertParses;
import static io.loadsmith.tester.client.http1.ParserHarness.Parsed.complete;
import static io.loadsmith.tester.client.http1.ParserHarness.Parsed.error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The response corpus: every case is checked whole, split in two at every byte boundary and byte by
 * byte ({@link ParserHarness#assertParses}), with exact status, keep-alive, body, error and leftover.
 */
class ResponseParserTest {

    /** Small limits, so that cases over a limit stay short enough to split everywhere. */
    private static final Limits SMALL = new Limits(32, 96, 24, 8);

    private static Run one(Parsed parsed) {
        return new Run(List.of(parsed), "");
    }

    private static Run one(Parsed parsed, String leftover) {
        return new Run(List.of(parsed), leftover);
    }

    // ---- well-formed responses

    @Test
    void a_plain_response_with_content_length_is_read_and_kept() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello",
                Feed.of(), one(complete(200, true, 5, "hello")));
    }

    @Test
    void a_body_that_is_not_kept_is_only_counted() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
                Feed.of().countOnly(), one(complete(200, true, 5, "")));
    }

    @Test
    void an_empty_body_completes_at_the_end_of_the_headers() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", Feed.of(), one(complete(200, true, 0, "")));
    }

    @Test
    void header_names_match_in_any_case() {
        assertParses("HTTP/1.1 201 Created\r\ncOnTeNt-LeNgTh: 3\r\nCONNECTION: CLOSE\r\n\r\nabc",
                Feed.of(), one(complete(201, false, 3, "abc")));
    }

    @Test
    void headers_that_only_start_like_framing_headers_are_ignored() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length-X: zz\r\nContent-Lengt: zz\r\nConnectionX: close\r\n"
                        + "Transfer-Encodings: chunked\r\nContent-Length: 2\r\n\r\nok",
                Feed.of(), one(complete(200, true, 2, "ok")));
    }

    @Test
    void a_status_line_without_a_reason_phrase_is_accepted() {
        assertParses("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok", Feed.of(), one(complete(200, true, 2, "ok")));
    }

    @Test
    void bare_lf_line_ends_are_accepted() {
        assertParses("HTTP/1.1 200 OK\nContent-Length: 2\n\nok", Feed.of(), one(complete(200, true, 2, "ok")));
    }

    @Test
    void a_chunked_body_with_extensions_and_trailers_is_decoded() {
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5;name=value\r\nhello\r\n"
                        + "7 ; a=\"b;c\" ;d\r\n, world\r\n"
                        + "A\r\n0123456789\r\n"
                        + "0;last\r\nX-Trailer: 1\r\nX-Other: two\r\n\r\n",
                Feed.of().limits(new Limits(8192, 65536, 4096, 100)), one(complete(200, true, 22, "hello, world0123456789")));
    }

    @Test
    void a_chunked_body_with_no_data_chunks_is_empty() {
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", Feed.of(),
                one(complete(200, true, 0, "")));
    }

    @Test
    void a_kept_body_stops_at_its_limit_while_the_count_goes_on() {
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nghijkl\r\n0\r\n\r\n",
                Feed.of().limits(SMALL), one(complete(200, true, 12, "abcdefgh")));
    }

    @Test
    void chunked_wins_over_content_length_and_the_connection_closes_after() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
                Feed.of(), one(complete(200, false, 2, "ok")));
    }

    @Test
    void chunked_after_another_coding_is_decoded_but_the_body_is_left_coded() {
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n\u001f\u008b\r\n0\r\n\r\n",
                Feed.of(), one(complete(200, true, 2, "\u001f\u008b")));
    }

    @Test
    void transfer_codings_over_two_header_lines_make_one_list() {
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
                Feed.of(), one(complete(200, true, 2, "ok")));
    }

    @Test
    void a_transfer_coding_without_final_chunked_makes_the_body_end_with_the_close() {
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\nContent-Length: 2\r\n\r\nabcdef",
                Feed.of(), one(complete(200, false, 6, "abcdef")));
    }

    @Test
    void a_100_continue_is_skipped_and_the_final_response_parsed() {
        assertParses("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
                Feed.of(), one(complete(200, true, 2, "ok")));
    }

    @Test
    void a_103_early_hints_is_skipped_and_its_headers_mean_nothing() {
        assertParses("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\nConnection: close\r\n"
                        + "Content-Length: nonsense\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
                Feed.of(), one(complete(200, true, 2, "ok")));
    }

    @Test
    void a_204_has_no_body_and_leaves_the_next_response_in_the_buffer() {
        assertParses("HTTP/1.1 204 No Content\r\nServer: x\r\n\r\nHTTP/1.1 200 OK\r\n",
                Feed.of(), one(complete(204, true, 0, ""), "HTTP/1.1 200 OK\r\n"));
    }

    @Test
    void a_304_has_no_body_whatever_its_content_length_says() {
        assertParses("HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\nHTTP/1.1",
                Feed.of(), one(complete(304, true, 0, ""), "HTTP/1.1"));
    }

    @Test
    void a_head_response_has_no_body_whatever_its_headers_say() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nHTTP/1.1 200 OK\r\n",
                Feed.of().forHead(), one(complete(200, true, 0, ""), "HTTP/1.1 200 OK\r\n"));
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
                Feed.of().forHead(), one(complete(200, true, 0, "")));
        assertParses("HTTP/1.0 200 OK\r\n\r\n", Feed.of().forHead().open(), one(complete(200, false, 0, "")));
    }

    @Test
    void http_1_0_closes_unless_it_says_keep_alive() {
        assertParses("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", Feed.of(), one(complete(200, false, 2, "ok")));
        assertParses("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok",
                Feed.of(), one(complete(200, true, 2, "ok")));
    }

    @Test
    void http_1_0_without_a_length_has_a_body_delimited_by_the_close() {
        assertParses("HTTP/1.0 200 OK\r\nServer: old\r\n\r\nbody until close", Feed.of(),
                one(complete(200, false, 16, "body until close")));
    }

    @Test
    void http_1_1_without_a_length_has_a_body_delimited_by_the_close() {
        assertParses("HTTP/1.1 200 OK\r\n\r\nabc", Feed.of(), one(complete(200, false, 3, "abc")));
    }

    @Test
    void a_body_delimited_by_the_close_needs_the_close() {
        assertParses("HTTP/1.1 200 OK\r\n\r\nabc", Feed.of().open(),
                one(new Parsed(Result.NEED_MORE, 200, false, 3, "abc", null)));
    }

    @Test
    void a_higher_http_1_minor_version_is_read_as_1_1() {
        assertParses("HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nok", Feed.of(), one(complete(200, true, 2, "ok")));
    }

    @Test
    void connection_close_ends_the_connection() {
        assertParses("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
                Feed.of(), one(complete(200, false, 2, "ok")));
    }

    @Test
    void connection_is_a_list_of_options() {
        assertParses("HTTP/1.1 200 OK\r\nConnection: upgrade ,  Close\t\r\nContent-Length: 0\r\n\r\n",
                Feed.of(), one(complete(200, false, 0, "")));
        assertParses("HTTP/1.1 200 OK\r\nConnection: closed, xclose, close d\r\nContent-Length: 0\r\n\r\n",
                Feed.of(), one(complete(200, true, 0, "")));
        assertParses("HTTP/1.0 200 OK\r\nConnection: foo\r\nConnection: bar, keep-alive\r\nContent-Length: 0\r\n\r\n",
                Feed.of(), one(complete(200, true, 0, "")));
    }

    @Test
    void two_pipelined_responses_in_one_buffer_parse_one_after_the_other() {
        String first = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst";
        String second = "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nsecond\r\n0\r\n\r\n";
        String third = "HTTP/1.1 200 OK\r\nContent-";
        assertParses(first + second + third, Feed.of().responses(2),
                new Run(List.of(complete(200, true, 5, "first"), complete(404, true, 6, "second")), third));
    }

    @Test
    void equal_content_lengths_repeated_are_one_length() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3 , 3\r\n\r\nabc",
                Feed.of(), one(complete(200, true, 3, "abc")));
    }

    @Test
    void the_largest_content_length_is_accepted_and_counted_as_it_comes() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\nabc", Feed.of().open(),
                one(new Parsed(Result.NEED_MORE, 200, true, 3, "abc", null)));
    }

    @Test
    void obs_text_in_a_reason_phrase_and_a_header_value_is_accepted() {
        assertParses("HTTP/1.1 200 \u00e9t\u00e9\r\nX-Name: caf\u00e9\r\nContent-Length: 0\r\n\r\n",
                Feed.of(), one(complete(200, true, 0, "")));
    }

    // ---- refused responses

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/2 200 OK\r\n", "HTTP/1.1 20 OK\r\n", "HTTP/1.1 600 Nope\r\n", "HTTP/1.1 099 X\r\n",
            "http/1.1 200 OK\r\n", "HTTP/1.1  200 OK\r\n", "HTTP/1.1 2000 OK\r\n", "HTTP/1.x 200 OK\r\n",
            "garbage\r\n", "\r\nHTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\rX", "HTTP/1.1 200 O\u0001K\r\n",
            "HTTP/1.1 2x0 OK\r\n", "HTTP/1.1\r\n"})
    void a_bad_status_line_is_refused(String statusLine) {
        String wire = statusLine + "Content-Length: 0\r\n\r\n";
        Run whole = ParserHarness.run(wire.getBytes(StandardCharsets.ISO_8859_1), Feed.of(), new int[0]);
        assertThat(whole.responses()).hasSize(1);
        assertThat(whole.responses().get(0).error()).isEqualTo(ParseError.BAD_STATUS_LINE);
        assertParses(wire, Feed.of(), whole);
    }

    @Test
    void a_status_line_over_its_limit_is_refused() {
        assertParses("HTTP/1.1 200 " + "x".repeat(40) + "\r\n\r\n", Feed.of().limits(SMALL),
                new Run(List.of(error(ParseError.STATUS_LINE_TOO_LONG, 200, 0)), "x".repeat(21) + "\r\n\r\n"));
    }

    @Test
    void a_status_line_at_its_limit_is_accepted() {
        String line = "HTTP/1.1 200 " + "x".repeat(17) + "\r\n";
        assertThat(line).hasSize(SMALL.maxStatusLineBytes());
        assertParses(line + "Content-Length: 0\r\n\r\n", Feed.of().limits(SMALL), one(complete(200, true, 0, "")));
    }

    @Test
    void an_endless_status_line_ends_in_an_error_not_a_hang() {
        byte[] endless = new byte[Limits.defaults().maxStatusLineBytes() * 4];
        java.util.Arrays.fill(endless, (byte) 'H');
        ResponseParser parser = new ResponseParser(Limits.defaults());
        parser.begin(false, false);
        assertThat(parser.parse(Unpooled.wrappedBuffer(endless))).isEqualTo(Result.ERROR);
        assertThat(parser.error()).isEqualTo(ParseError.BAD_STATUS_LINE);
        ByteBuf noLineEnd = Unpooled.buffer().writeBytes("HTTP/1.1 200 ".getBytes(StandardCharsets.US_ASCII)).writeBytes(endless);
        parser.begin(false, false);
        assertThat(parser.parse(noLineEnd)).isEqualTo(Result.ERROR);
        assertThat(parser.error()).isEqualTo(ParseError.STATUS_LINE_TOO_LONG);
    }

    @Test
    void a_101_switching_protocols_is_refused() {
        assertParses("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n", Feed.of(),
                new Run(List.of(error(ParseError.UPGRADE_NOT_SUPPORTED, 101, 0)), "Upgrade: websocket\r\n\r\n"));
    }

    @Test
    void a_header_section_over_its_limit_is_refused() {
        String headers = "X-Big: " + "y".repeat(100) + "\r\n";
        String wire = "HTTP/1.1 200 OK\r\n" + headers + "\r\n";
        assertParses(wire, Feed.of().limits(SMALL),
                new Run(List.of(error(ParseError.HEADERS_TOO_LARGE, 200, 0)), wire.substring(17 + 96)));
    }

    @Test
    void huge_headers_over_the_default_limit_are_refused() {
        StringBuilder wire = new StringBuilder("HTTP/1.1 200 OK\r\n");
        for (int i = 0; wire.length() < 70 * 1024; i++) {
            wire.append("X-Header-").append(i).append(": ").append("v".repeat(100)).append("\r\n");
        }
        wire.append("Content-Length: 0\r\n\r\n");
        byte[] bytes = wire.toString().getBytes(StandardCharsets.US_ASCII);
        for (int[] cuts : new int[][] {{}, {1}, {17}, {40_000}, {65_553}, {65_554}, {bytes.length - 1}}) {
            assertThat(ParserHarness.run(bytes, Feed.of(), cuts).responses())
                    .as("cut at %s", java.util.Arrays.toString(cuts))
                    .containsExactly(error(ParseError.HEADERS_TOO_LARGE, 200, 0));
        }
    }

    @Test
    void a_header_section_at_its_limit_is_accepted() {
        String filler = "X: " + "y".repeat(70) + "\r\n";
        String headers = filler + "Content-Length: 0\r\n\r\n";
        assertThat(headers).hasSize(SMALL.maxHeaderBytes());
        assertParses("HTTP/1.1 200 OK\r\n" + headers, Feed.of().limits(SMALL), one(complete(200, true, 0, "")));
    }

    @ParameterizedTest
    @ValueSource(strings = {" X-Folded: yes\r\n", "X-Folded: a\r\n  b\r\n", "X-Bad : 1\r\n", "NoColon\r\n",
            "X-Bad\u0001: 1\r\n", "X-Nul: a\u0000b\r\n", "X-Cr: a\rb\r\n", "Bad Name: 1\r\n", ": empty name\r\n",
            "X-Ok: 1\r\r\n", "X-Del: \u007f\r\n"})
    void a_malformed_header_line_is_refused(String line) {
        Run whole = ParserHarness.run(("HTTP/1.1 200 OK\r\n" + line + "Content-Length: 0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1), Feed.of(), new int[0]);
        assertThat(whole.responses()).containsExactly(error(ParseError.BAD_HEADER, 200, 0));
        assertParses("HTTP/1.1 200 OK\r\n" + line + "Content-Length: 0\r\n\r\n", Feed.of(), whole);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "+5", "abc", "1 2", "", "  ", "5,", ",5", "5, 6", "0x10", "1.0", "99999999999999999999",
            "9223372036854775808"})
    void a_bad_content_length_is_refused(String value) {
        String wire = "HTTP/1.1 200 OK\r\nContent-Length: " + value + "\r\n\r\n";
        Run whole = ParserHarness.run(wire.getBytes(StandardCharsets.ISO_8859_1), Feed.of(), new int[0]);
        assertThat(whole.responses()).containsExactly(error(ParseError.BAD_CONTENT_LENGTH, 200, 0));
        assertParses(wire, Feed.of(), whole);
    }

    @Test
    void conflicting_content_lengths_on_two_lines_are_refused() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", Feed.of(),
                new Run(List.of(error(ParseError.BAD_CONTENT_LENGTH, 200, 0)), "\r\nabcd"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"chunked, chunked", "", " ", ",", "chunked;x=1", "chu nked", "chunked\u00e9", "gzip, chunked, chunked"})
    void a_bad_transfer_encoding_is_refused(String value) {
        String wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: " + value + "\r\n\r\n0\r\n\r\n";
        Run whole = ParserHarness.run(wire.getBytes(StandardCharsets.ISO_8859_1), Feed.of(), new int[0]);
        assertThat(whole.responses()).containsExactly(error(ParseError.BAD_TRANSFER_ENCODING, 200, 0));
        assertParses(wire, Feed.of(), whole);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zz\r\n", "-1\r\n", "\r\n", "1x\r\n", " 5\r\n", "5 x\r\n", "10000000000000000\r\n",
            "5\rX", "5\r\nhelloX", "5\r\nhello\rX", "3;\u0001\r\n"})
    void a_bad_chunk_size_is_refused(String chunk) {
        String wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk;
        Run whole = ParserHarness.run(wire.getBytes(StandardCharsets.ISO_8859_1), Feed.of(), new int[0]);
        assertThat(whole.responses()).hasSize(1);
        assertThat(whole.responses().get(0).error()).isEqualTo(ParseError.BAD_CHUNK_SIZE);
        assertParses(wire, Feed.of(), whole);
    }

    @Test
    void the_largest_chunk_size_is_accepted() {
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc", Feed.of().open(),
                one(new Parsed(Result.NEED_MORE, 200, true, 3, "abc", null)));
    }

    @Test
    void a_chunk_line_over_its_limit_is_refused() {
        String wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;" + "e".repeat(30) + "\r\nhello\r\n0\r\n\r\n";
        assertParses(wire, Feed.of().limits(SMALL), new Run(List.of(error(ParseError.CHUNK_LINE_TOO_LONG, 200, 0)),
                "e".repeat(8) + "\r\nhello\r\n0\r\n\r\n"));
    }

    @Test
    void a_trailer_section_over_its_limit_is_refused() {
        String wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-T: " + "t".repeat(100) + "\r\n\r\n";
        Run whole = ParserHarness.run(wire.getBytes(StandardCharsets.ISO_8859_1), Feed.of().limits(SMALL), new int[0]);
        assertThat(whole.responses()).containsExactly(error(ParseError.HEADERS_TOO_LARGE, 200, 2, "ok"));
        assertParses(wire, Feed.of().limits(SMALL), whole);
    }

    @Test
    void a_server_closing_before_any_byte_is_closed_before_response() {
        assertParses("", Feed.of(), one(error(ParseError.CLOSED_BEFORE_RESPONSE, 0, 0)));
    }

    @Test
    void a_server_closing_mid_body_is_closed_mid_response() {
        assertParses("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello", Feed.of(),
                one(error(ParseError.CLOSED_MID_RESPONSE, 200, 5, "hello")));
    }

    @Test
    void a_server_closing_mid_chunk_or_mid_headers_is_closed_mid_response() {
        assertParses("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", Feed.of(),
                one(error(ParseError.CLOSED_MID_RESPONSE, 200, 3, "hel")));
        assertParses("HTTP/1.1 200 OK\r\nContent-Len", Feed.of(), one(error(ParseError.CLOSED_MID_RESPONSE, 200, 0)));
        assertParses("HTTP/1.1 100 Continue\r\n\r\n", Feed.of(), one(error(ParseError.CLOSED_MID_RESPONSE, 0, 0)));
    }

    // ---- the parser's contract

    @Test
    void parse_after_the_end_of_a_response_reads_nothing_until_the_next_begin() {
        ResponseParser parser = new ResponseParser(Limits.defaults());
        ByteBuf in = Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 204 No\r\n\r\n",
                StandardCharsets.US_ASCII);
        parser.begin(false, false);
        assertThat(parser.parse(in)).isEqualTo(Result.COMPLETE);
        int leftover = in.readableBytes();
        assertThat(parser.parse(in)).isEqualTo(Result.COMPLETE);
        assertThat(parser.closed()).isEqualTo(Result.COMPLETE);
        assertThat(in.readableBytes()).isEqualTo(leftover);
        parser.begin(false, false);
        assertThat(parser.parse(in)).isEqualTo(Result.COMPLETE);
        assertThat(parser.status()).isEqualTo(204);
        assertThat(in.readableBytes()).isZero();
    }

    @Test
    void begin_forgets_the_previous_response_and_its_error() {
        ResponseParser parser = new ResponseParser(Limits.defaults());
        parser.begin(false, true);
        assertThat(parser.parse(Unpooled.copiedBuffer("nonsense\r\n", StandardCharsets.US_ASCII))).isEqualTo(Result.ERROR);
        parser.begin(false, true);
        assertThat(parser.result()).isEqualTo(Result.NEED_MORE);
        assertThat(parser.error()).isNull();
        assertThat(parser.errorDetail()).isNull();
        assertThat(parser.parse(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz",
                StandardCharsets.US_ASCII))).isEqualTo(Result.COMPLETE);
        assertThat(parser.body()).containsExactly((byte) 'z');
        assertThat(parser.keepAlive()).isTrue();
    }

    @Test
    void every_error_has_a_short_detail() {
        ResponseParser parser = new ResponseParser(Limits.defaults());
        parser.begin(false, false);
        parser.parse(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
                StandardCharsets.US_ASCII));
        assertThat(parser.errorDetail()).isEqualTo("conflicting Content-Length values 3 and 4");
    }

    @Test
    void limits_must_be_positive() {
        assertThatThrownBy(() -> new Limits(0, 1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Limits(1, 1, 1, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Limits.defaults()).isEqualTo(new Limits(8192, 65536, 4096, 1048576));
    }
}
