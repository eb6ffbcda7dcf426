package io.loadsmith.tester.agentclient;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicasTest {

    /** A resolver that knows a few names, as a headless Service's DNS would answer them. */
    private static Replicas.Resolver knowing(Map<String, List<String>> names) {
        return host -> {
            List<String> addresses = names.get(host);
            if (addresses == null) {
                throw new UnknownHostException(host + ": Name or service not known");
            }
            InetAddress[] resolved = new InetAddress[addresses.size()];
            for (int i = 0; i < resolved.length; i++) {
                resolved[i] = InetAddress.getByName(addresses.get(i));
            }
            return resolved;
        };
    }

    @Test
    void a_name_with_two_addresses_becomes_one_agent_per_address_on_the_same_port() throws Exception {
        Replicas.Resolver dns = knowing(Map.of("scored.default.svc", List.of("10.0.0.8", "10.0.0.7")));

        List<URI> admins = Replicas.expand(List.of(URI.create("http://scored.default.svc:7070")), dns);

        assertThat(admins).containsExactly(URI.create("http://10.0.0.7:7070"), URI.create("http://10.0.0.8:7070"));
    }

    @Test
    void an_ipv6_address_of_a_name_is_bracketed() throws Exception {
        Replicas.Resolver dns = knowing(Map.of("scored", List.of("10.0.0.7", "fd00::7")));

        List<URI> admins = Replicas.expand(List.of(URI.create("http://scored:7070")), dns);

        assertThat(admins).containsExactly(URI.create("http://10.0.0.7:7070"), URI.create("http://[fd00:0:0:0:0:0:0:7]:7070"));
    }

    @Test
    void a_name_with_one_address_stays_as_given() throws Exception {
        Replicas.Resolver dns = knowing(Map.of("scored", List.of("10.0.0.7")));

        assertThat(Replicas.expand(List.of(URI.create("http://scored:7070")), dns))
                .containsExactly(URI.create("http://scored:7070"));
    }

    @Test
    void localhost_with_its_two_loopback_addresses_stays_one_agent() throws Exception {
        Replicas.Resolver dns = knowing(Map.of("localhost", List.of("127.0.0.1", "::1")));

        assertThat(Replicas.expand(List.of(URI.create("http://localhost:7070")), dns))
                .containsExactly(URI.create("http://localhost:7070"));
    }

    @Test
    void a_list_keeps_its_order_and_an_address_found_twice_once() throws Exception {
        Replicas.Resolver dns = knowing(Map.of("127.0.0.1", List.of("127.0.0.1"), "scored", List.of("10.0.0.7", "10.0.0.8"),
                "10.0.0.8", List.of("10.0.0.8")));

        List<URI> admins = Replicas.expand(List.of(URI.create("http://127.0.0.1:7071"), URI.create("http://10.0.0.8:7070"),
                URI.create("http://scored:7070")), dns);

        assertThat(admins).containsExactly(URI.create("http://127.0.0.1:7071"), URI.create("http://10.0.0.8:7070"),
                URI.create("http://10.0.0.7:7070"));
    }

    @Test
    void a_name_that_does_not_resolve_is_an_unreachable_agent_named_by_its_url() {
        assertThatThrownBy(() -> Replicas.expand(List.of(URI.create("http://nowhere:7070")), knowing(Map.of())))
                .isInstanceOf(AdminException.class)
                .hasMessageStartingWith("admin http://nowhere:7070: cannot resolve nowhere (nowhere: Name or service not known)")
                .satisfies(e -> assertThat(((AdminException) e).status()).isZero());
    }
}
