package io.loadsmith.tester.transport;

import io.loadsmith.stall.gate.ReplicaHeader;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The replicas that answered this tester's requests, as their {@code Loadsmith-Replica} header names them
 * (the agent's {@code trace-header=on}: {@code <replica>;recv=<ns>;sent=<ns>}): each replica id gets a
 * number, 1, 2, ... in the order this process first meets it, kept for the life of the process, so a
 * request record carries an int rather than the id ({@code requests.bin}'s served by; 0 is no header).
 * A run armed on several agents registers their ids before it sends ({@link #number}), and
 * {@code results.json} gives each agent's number ({@code replicas[].served_by}).
 *
 * <pre>{@code
 * int servedBy = ServedBy.ofHeader(response.getHeaders().get(ServedBy.HEADER)); // 0 without the header
 * String replica = ServedBy.id(servedBy);
 * }</pre>
 *
 * <p>Thread-safe; a known id costs one map look-up.
 */
public final class ServedBy {

    /** The response header the agent sets with {@code trace-header=on}. */
    public static final String HEADER = ReplicaHeader.NAME;

    /** The number of an answer without the header. */
    public static final int NONE = 0;

    private static final Map<String, Integer> NUMBERS = new ConcurrentHashMap<>();
    private static final List<String> IDS = new CopyOnWriteArrayList<>();

    private ServedBy() {
    }

    /** The number of replica {@code id}, given it now if it has none yet. */
    public static int number(String id) {
        Integer known = NUMBERS.get(id);
        if (known != null) {
            return known;
        }
        synchronized (IDS) {
            return NUMBERS.computeIfAbsent(id, k -> {
                IDS.add(k);
                return IDS.size();
            });
        }
    }

    /** The number of the replica a header value names (its text before the first {@code ;}); 0 for null or blank. */
    public static int ofHeader(String value) {
        if (value == null) {
            return NONE;
        }
        int semicolon = value.indexOf(';');
        String id = (semicolon < 0 ? value : value.substring(0, semicolon)).strip();
        return id.isEmpty() ? NONE : number(id);
    }

    /** The replica id of {@code number}; null for 0 or a number never given. */
    public static String id(int number) {
        return number <= 0 || number > IDS.size() ? null : IDS.get(number - 1);
    }
}
