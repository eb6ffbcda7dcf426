package io.loadsmith.stall.gate;

import io.loadsmith.stall.clock.Clock;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The response header that tells a tester which replica served a request and when the gate held it:
 * {@code Loadsmith-Replica: <replica>;recv=<nanoTime at the gate>;sent=<nanoTime when the gate let it go>}
 * (both on the clock of the service's {@code GET /clock}). Set on the response object a server hands its
 * entry point, found by reflection once per class and then called directly: {@code setHeader(String,
 * String)} (servlet responses, Tomcat's coyote response), {@code getHeaders().put(String, String)} (Jetty
 * 12), {@code getResponseHeaders().put(HttpString, String)} (Undertow) or {@code getResponse()} and one of
 * those (Jetty 9 to 11's channel). An object none of these fits gets no header. A response that has the
 * header already keeps it: the first gate a request meets names it.
 *
 * <p>Only the agent's {@code trace-header=on} gates call it; with it off nothing on the request path
 * touches this class. Uses java.base only (it is defined in the bootstrap loader with the gate).
 * Thread-safe.
 */
public final class ReplicaHeader {

    /** The header's name. */
    public static final String NAME = "Loadsmith-Replica";

    /** How deep {@code getResponse()} and {@code getHeaders()} are followed. */
    private static final int MAX_DEPTH = 3;

    private static final Clock CLOCK = Clock.system();

    private static volatile String replica = "unknown";

    private static final ClassValue<Setter> SETTERS = new ClassValue<>() {
        @Override
        protected Setter computeValue(Class<?> type) {
            return find(type);
        }
    };

    private ReplicaHeader() {
    }

    /** Sets a header value on a response (or on what leads to one). */
    @FunctionalInterface
    private interface Setter {
        void set(Object target, String value, int depth) throws ReflectiveOperationException;
    }

    /** Sets the replica id the header names (the agent's {@code replica=}). */
    public static void replica(String id) {
        replica = id;
    }

    /** The replica id the header names. */
    public static String replica() {
        return replica;
    }

    /**
     * {@link StallGate#passGlobal()} timed, then the header on {@code response} with those two moments: what
     * the agent's entry gate calls with {@code trace-header=on} (one static call woven into the method).
     * Never throws.
     */
    public static void passGlobalAndAdd(Object response) {
        long recvNanos = CLOCK.nanoTime();
        StallGate.passGlobal();
        add(response, recvNanos, CLOCK.nanoTime());
    }

    /** The header's value: {@code <replica>;recv=<recvNanos>;sent=<sentNanos>}. */
    public static String value(long recvNanos, long sentNanos) {
        return replica + ";recv=" + recvNanos + ";sent=" + sentNanos;
    }

    /**
     * Puts the header on {@code response} (a server's response object, or what carries it); does nothing
     * for an object it does not know how to, and never throws.
     */
    public static void add(Object response, long recvNanos, long sentNanos) {
        set(response, value(recvNanos, sentNanos), 0);
    }

    private static void set(Object target, String value, int depth) {
        if (target == null || depth > MAX_DEPTH) {
            return;
        }
        try {
            SETTERS.get(target.getClass()).set(target, value, depth);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // no header, as for an object of an unknown kind
        }
    }

    private static Setter find(Class<?> type) {
        Method setHeader = publicMethod(type, "setHeader", String.class, String.class);
        if (setHeader != null) {
            return unlessPresent(publicMethod(type, "containsHeader", String.class), NAME, setHeader);
        }
        Method put = publicMethod(type, "put", String.class, String.class);
        if (put != null) {
            return unlessPresent(publicMethod(type, "contains", String.class), NAME, put);
        }
        for (String getter : new String[] {"getHeaders", "getResponseHeaders", "getResponse"}) {
            Method get = publicMethod(type, getter);
            if (get != null) {
                return (target, value, depth) -> set(get.invoke(target), value, depth + 1);
            }
        }
        for (Method method : type.getMethods()) {
            Class<?>[] params = method.getParameterTypes();
            if (method.getName().equals("put") && params.length == 2 && params[1] == String.class
                    && Modifier.isPublic(method.getDeclaringClass().getModifiers())) {
                Constructor<?> name = stringConstructor(params[0]);
                if (name != null) {
                    Object headerName;
                    try {
                        headerName = name.newInstance(NAME);
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        continue;
                    }
                    return unlessPresent(publicMethod(type, "contains", params[0]), headerName, method);
                }
            }
        }
        return (target, value, depth) -> { };
    }

    /**
     * Calls {@code set(name, value)} unless {@code contains(name)} (when there is such a method) says the
     * header is there: the first gate a request meets names it (a servlet's gate inside Tomcat's or Jetty's
     * leaves their header alone).
     */
    private static Setter unlessPresent(Method contains, Object name, Method set) {
        if (contains == null || contains.getReturnType() != boolean.class) {
            return (target, value, depth) -> set.invoke(target, name, value);
        }
        return (target, value, depth) -> {
            if (!(Boolean) contains.invoke(target, name)) {
                set.invoke(target, name, value);
            }
        };
    }

    private static Constructor<?> stringConstructor(Class<?> type) {
        try {
            Constructor<?> constructor = type.getConstructor(String.class);
            return Modifier.isPublic(type.getModifiers()) ? constructor : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** A public method of {@code type} declared by a public class or interface (so it can be invoked), or null. */
    private static Method publicMethod(Class<?> type, String name, Class<?>... params) {
        Deque<Class<?>> todo = new ArrayDeque<>();
        todo.add(type);
        while (!todo.isEmpty()) {
            Class<?> c = todo.poll();
            if (Modifier.isPublic(c.getModifiers())) {
                try {
                    Method method = c.getDeclaredMethod(name, params);
                    if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())) {
                        return method;
                    }
                } catch (NoSuchMethodException e) {
                    // look further up
                }
            }
            if (c.getSuperclass() != null) {
                todo.add(c.getSuperclass());
            }
            todo.addAll(java.util.List.of(c.getInterfaces()));
        }
        return null;
    }
}
