package io.loadsmith.stall.gate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

class ReplicaHeaderTest {

    /** A servlet-like response: {@code setHeader} and {@code containsHeader}. */
    public static final class ServletLike {
        public final Map<String, String> headers = new LinkedHashMap<>();

        public void setHeader(String name, String value) {
            headers.put(name, value);
        }

        public boolean containsHeader(String name) {
            return headers.containsKey(name);
        }
    }

    /** A Jetty-12-like response: {@code getHeaders().put(String, String)}. */
    public static final class CoreLike {
        public final Fields fields = new Fields();

        public Fields getHeaders() {
            return fields;
        }
    }

    public static final class Fields {
        public final Map<String, String> values = new LinkedHashMap<>();

        public Fields put(String name, String value) {
            values.put(name, value);
            return this;
        }
    }

    /** An Undertow-like exchange: {@code getResponseHeaders().put(Name, String)}. */
    public static final class ExchangeLike {
        public final NamedMap map = new NamedMap();

        public NamedMap getResponseHeaders() {
            return map;
        }
    }

    public static final class Name {
        final String text;

        public Name(String text) {
            this.text = text;
        }
    }

    public static final class NamedMap {
        public final Map<String, String> values = new LinkedHashMap<>();

        public NamedMap put(Name name, String value) {
            values.put(name.text, value);
            return this;
        }
    }

    /** A Jetty-9-like channel: {@code getResponse()} leads to the response. */
    public static final class ChannelLike {
        public final ServletLike response = new ServletLike();

        public ServletLike getResponse() {
            return response;
        }
    }

    @AfterEach
    void forgetTheReplica() {
        ReplicaHeader.replica("unknown");
    }

    @Test
    void the_value_names_the_replica_and_both_clock_reads() {
        ReplicaHeader.replica("scored-0");

        assertThat(ReplicaHeader.value(12, 345)).isEqualTo("scored-0;recv=12;sent=345");
    }

    @Test
    void a_response_with_set_header_gets_it() {
        ReplicaHeader.replica("r");
        ServletLike response = new ServletLike();

        ReplicaHeader.add(response, 1, 2);

        assertThat(response.headers).containsExactly(Map.entry(ReplicaHeader.NAME, "r;recv=1;sent=2"));
    }

    @Test
    void a_response_that_has_the_header_keeps_the_first_gates() {
        ReplicaHeader.replica("r");
        ServletLike response = new ServletLike();

        ReplicaHeader.add(response, 1, 2);
        ReplicaHeader.add(response, 3, 4);

        assertThat(response.headers).containsExactly(Map.entry(ReplicaHeader.NAME, "r;recv=1;sent=2"));
    }

    @Test
    void headers_reached_through_a_getter_get_it() {
        ReplicaHeader.replica("r");
        CoreLike core = new CoreLike();
        ExchangeLike exchange = new ExchangeLike();
        ChannelLike channel = new ChannelLike();

        ReplicaHeader.add(core, 1, 2);
        ReplicaHeader.add(exchange, 3, 4);
        ReplicaHeader.add(channel, 5, 6);

        assertThat(core.fields.values).containsExactly(Map.entry(ReplicaHeader.NAME, "r;recv=1;sent=2"));
        assertThat(exchange.map.values).containsExactly(Map.entry(ReplicaHeader.NAME, "r;recv=3;sent=4"));
        assertThat(channel.response.headers).containsExactly(Map.entry(ReplicaHeader.NAME, "r;recv=5;sent=6"));
    }

    /** Header-like methods of names no server uses: none of them is called. */
    public static final class UnknownKind {
        public final List<String> calls = new ArrayList<>();

        public void header(String name, String value) {
            calls.add("header " + name);
        }

        public void setHeader(String name) {
            calls.add("setHeader " + name);
        }
    }

    @Test
    void an_object_of_an_unknown_kind_or_null_is_left_alone() {
        ReplicaHeader.replica("r");
        UnknownKind unknown = new UnknownKind();

        ReplicaHeader.add(unknown, 1, 2);

        assertThat(unknown.calls).isEmpty();
        assertThatCode(() -> {
            ReplicaHeader.add(new Object(), 1, 2);
            ReplicaHeader.add(null, 1, 2);
            ReplicaHeader.add("a string", 1, 2);
        }).doesNotThrowAnyException();
    }
}
