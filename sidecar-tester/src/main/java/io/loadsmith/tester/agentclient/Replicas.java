package io.loadsmith.tester.agentclient;

import io.loadsmith.tester.result.RunResult;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The agents of a service's replicas, armed together: {@code stalls.admin} lists several admin URLs, or
 * gives one whose host is a DNS name with several addresses (what a headless Kubernetes Service resolves
 * to), and each address is one agent on the same port ({@link #expand}). The admin API gives every arming
 * its own run id, so each replica's run keeps the id its agent gave it ({@link Replica}).
 *
 * <pre>{@code
 * List<URI> admins = Replicas.expand(List.of(URI.create("http://scored.default.svc:7070")), Replicas.DNS);
 * }</pre>
 */
public final class Replicas {

    /** Finds every address of a host name. */
    @FunctionalInterface
    public interface Resolver {
        /** Every address of {@code host} (at least one). */
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** The system's resolver: every A and AAAA record, through {@link InetAddress#getAllByName}. */
    public static final Resolver DNS = InetAddress::getAllByName;

    /**
     * What one replica's agent did in a run.
     *
     * @param address   its admin URL (the {@code replica} of its stall rows in {@code results.json})
     * @param replicaId the id its agent gives itself ({@code replica=} of the agent, in {@code GET /health});
     *                  null when the agent does not say
     * @param offset    its clock offset to the tester
     * @param armed     what its {@code /arm} answered (its own run id)
     * @param stalls    its stalls of the run, on its own clock
     * @param missing   indices of its planned stalls inside the counted span that did not happen
     * @param servedBy  the number its id has in the request log's served by (0 when it gives no id)
     * @param requestsServed requests of the counted run whose answer named it
     * @param lost      when its agent stopped answering during the run, what that left unknown; else null
     */
    public record Replica(String address, String replicaId, ClockOffset offset, AdminClient.Armed armed,
                          List<ServerStall> stalls, List<Integer> missing, int servedBy, long requestsServed,
                          RunResult.AgentLost lost) {

        public Replica {
            stalls = List.copyOf(stalls);
            missing = List.copyOf(missing);
        }
    }

    private Replicas() {
    }

    /**
     * One admin URL per replica: every URL as given, except that one whose host resolves to several
     * addresses becomes one URL per address (same scheme, port and path), in the order of the addresses'
     * text. A host whose addresses are all loopback ({@code localhost}: 127.0.0.1 and ::1) stays as given:
     * those are one machine, not replicas. A URL found twice is kept once.
     *
     * @throws AdminException naming the URL, when its host cannot be resolved
     */
    public static List<URI> expand(List<URI> admins, Resolver resolver) throws AdminException {
        List<URI> expanded = new ArrayList<>();
        for (URI admin : admins) {
            for (URI one : expandOne(admin, resolver)) {
                if (!expanded.contains(one)) {
                    expanded.add(one);
                }
            }
        }
        return List.copyOf(expanded);
    }

    private static List<URI> expandOne(URI admin, Resolver resolver) throws AdminException {
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(admin.getHost());
        } catch (UnknownHostException e) {
            throw new AdminException("admin " + admin + ": cannot resolve " + admin.getHost() + " (" + e.getMessage()
                    + "); is the name of the service's agents right?", 0, e);
        }
        if (addresses.length <= 1 || Arrays.stream(addresses).allMatch(InetAddress::isLoopbackAddress)) {
            return List.of(admin);
        }
        List<URI> each = new ArrayList<>();
        for (InetAddress address : Arrays.stream(addresses).sorted(Comparator.comparing(InetAddress::getHostAddress))
                .toList()) {
            try {
                each.add(new URI(admin.getScheme(), admin.getUserInfo(), address.getHostAddress(), admin.getPort(),
                        admin.getPath(), admin.getQuery(), admin.getFragment()));
            } catch (URISyntaxException e) {
                throw new IllegalStateException("admin " + admin + ": " + address + " makes no URL", e);
            }
        }
        return each;
    }
}
