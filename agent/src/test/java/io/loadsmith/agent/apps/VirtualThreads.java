package io.loadsmith.agent.apps;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

/**
 * What the virtual-thread test apps share (they are compiled for Java 17 and run on 21+, so the
 * virtual-thread API is reached by reflection): a virtual-thread-per-task executor, whether a thread is
 * virtual, a second server that the agent does not gate, and a watch that prints every
 * {@code jdk.VirtualThreadPinned} event.
 */
final class VirtualThreads {

    private VirtualThreads() {
    }

    static ExecutorService newPerTaskExecutor() throws ReflectiveOperationException {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    /** "virtual" or "platform": what the calling thread is. */
    static String kindOfCurrentThread() {
        try {
            return (boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread()) ? "virtual" : "platform";
        } catch (ReflectiveOperationException e) {
            return "platform";
        }
    }

    /**
     * A JDK HTTP server on 127.0.0.1 whose handlers run on virtual threads, on the same carriers as the
     * gated server's: {@code GET /} answers the kind of its thread, {@code GET /pin} first parks a virtual
     * thread inside a class initializer (which pins its carrier, a known pin to check the watch with).
     * Prints {@code UNGATED=n} (not "PORT=": the test reads the first line with that for the gated server).
     */
    static void startUngatedServer() throws IOException, ReflectiveOperationException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setExecutor(newPerTaskExecutor());
        server.createContext("/", exchange -> {
            if (exchange.getRequestURI().getPath().equals("/pin")) {
                PinsItsCarrier.load();
            }
            byte[] body = kindOfCurrentThread().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        System.out.println("UNGATED=" + server.getAddress().getPort());
        System.out.flush();
    }

    /**
     * Prints {@code PINNED frame1 < frame2 < ...} (the top 12 frames) for every
     * {@code jdk.VirtualThreadPinned} event, whatever its duration, then {@code PIN-WATCH on}.
     */
    static void watchPinning() {
        RecordingStream stream = new RecordingStream();
        stream.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
        stream.onEvent("jdk.VirtualThreadPinned", event -> {
            List<RecordedFrame> frames = event.getStackTrace() == null ? List.of() : event.getStackTrace().getFrames();
            System.out.println("PINNED " + frames.stream().limit(12)
                    .map(f -> f.getMethod().getType().getName() + "#" + f.getMethod().getName())
                    .collect(Collectors.joining(" < ")));
            System.out.flush();
        });
        stream.startAsync();
        System.out.println("PIN-WATCH on");
        System.out.flush();
    }

    /** Its initializer sleeps: a virtual thread that loads it parks while pinned to its carrier. */
    private static final class PinsItsCarrier {
        static {
            AppMain.work(30);
        }

        static void load() {
            // the initializer did the work
        }
    }
}
