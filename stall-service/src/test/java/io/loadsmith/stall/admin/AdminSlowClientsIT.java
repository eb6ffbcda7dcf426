package io.loadsmith.stall.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The admin API against crowds of clients that send half a request and wait, on real loopback sockets: the
 * API's answers are exact, each slow client is closed (with a 408 when it stopped inside a body its handler
 * reads, with its handler's answer when it stopped inside one the handler refused unread), and admin calls
 * are answered while the crowd hangs. The one bound on time here is generous: 500 ms a call, against an aim
 * of 100 ms, and against the 0.6-1 s a call waits if workers left draining a refused body are freed only by
 * the 1 s limit of a crowd. How fast the API answers is measured by stall-service/bench/fuzz.sh (its crowd
 * lines).
 */
@Timeout(120)
class AdminSlowClientsIT {

    private static final int SLOW_CLIENTS = 200;
    private static final int IDLE_CLIENTS = 50;
    private static final int CROWD = 150;
    private static final int CALLS = 6;

    private final StallController controller = new StallController(Clock.system(), new StallGate());
    private final AdminServer server = AdminServer.start(AdminConfig.builder().version("1.2.3").port(0).build(), controller);
    private final List<Socket> slow = new ArrayList<>();
    private final List<Socket> idle = new ArrayList<>();
    private final Map<Socket, String> received = new HashMap<>();

    @AfterEach
    void stop() {
        List<Socket> all = new ArrayList<>(slow);
        all.addAll(idle);
        for (Socket socket : all) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closed by the server already
            }
        }
        server.close();
        controller.close();
    }

    @Test
    void stalls_and_disarm_answer_while_200_clients_trickle_and_50_idle_and_the_trickling_connections_are_closed_with_a_408_inside_a_body() throws Exception {
        for (int i = 0; i < IDLE_CLIENTS; i++) {
            idle.add(open(""));
        }
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            slow.add(open(i % 2 == 0 ? "GET /sta" : "POST /disarm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"ha"));
        }
        AdminClient admin = new AdminClient(server.address());

        AdminClient.Answer stalls = admin.get("/stalls");
        AdminClient.Answer disarm = admin.postJson("/disarm", "");

        assertThat(stalls.status()).isEqualTo(200);
        assertThat(stalls.body()).isEqualTo("{\"run_id\":null,\"last_run_id\":null,\"armed\":false,\"next_index\":0,\"more\":false,"
                + "\"dropped\":0,\"stalls\":[]}\n");
        assertThat(disarm.status()).isEqualTo(200);
        assertThat(disarm.body()).isEqualTo("{\"disarmed\":false,\"run_id\":null,\"stalls\":[]}\n");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> slow.stream().filter(this::closedByServer).count() == SLOW_CLIENTS);
        int answered408 = 0;
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            String answer = received.getOrDefault(slow.get(i), "");
            if (i % 2 == 0) {
                assertThat(answer).as("a client inside its request line").isEmpty();
            } else if (!answer.isEmpty()) { // empty: closed unread after waiting 5 s for a worker
                assertThat(answer).as("a client inside its body").startsWith("HTTP/1.1 408 ");
                answered408++;
            }
        }
        assertThat(answered408).isPositive();
    }

    /**
     * 150 clients, half stopped inside a request line and half inside the body of a {@code POST /arm} that its
     * handler refuses unread (415: no Content-Type), 996 of its 1,000 bytes missing: after the answer the JDK
     * server drains what is left of the body before it frees the worker. The request lines are sent first, so
     * that the workers, which take the newest connection first, hold refused bodies when the calls come.
     */
    @Test
    void each_call_is_answered_within_500_ms_while_75_clients_hang_inside_a_refused_body_and_75_inside_a_request_line() throws Exception {
        AdminClient admin = new AdminClient(server.address());
        assertThat(admin.get("/health").status()).as("the client's first call, before the crowd").isEqualTo(200);
        for (int i = 0; i < CROWD / 2; i++) {
            slow.add(open("GET /stal"));
        }
        for (int i = 0; i < CROWD / 2; i++) {
            slow.add(open("POST /arm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"se"));
        }

        List<Long> callMillis = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            long startNanos = System.nanoTime();
            AdminClient.Answer answer = i % 2 == 0 ? admin.get("/stalls") : admin.postJson("/disarm", "");
            callMillis.add((System.nanoTime() - startNanos) / 1_000_000);
            assertThat(answer.status()).as("call %d: %s", i, answer.body()).isEqualTo(200);
        }
        long stillHanging = slow.stream().filter(socket -> !closedByServer(socket)).count();

        assertThat(callMillis).as("each call's time, in ms").allSatisfy(millis -> assertThat(millis).isLessThan(500));
        assertThat(stillHanging).as("the crowd still hangs when the last call is answered").isPositive();
        List<Socket> refused = slow.subList(CROWD / 2, CROWD);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> refused.stream().filter(this::closedByServer).count() == refused.size());
        int answered415 = 0;
        for (Socket client : refused) {
            String answer = received.getOrDefault(client, "");
            if (!answer.isEmpty()) { // empty: closed unread after waiting 5 s for a worker
                assertThat(answer).as("a client inside a refused body").startsWith("HTTP/1.1 415 ")
                        .endsWith("{\"error\":\"Content-Type: must be application/json (got none)\"}\n");
                answered415++;
            }
        }
        assertThat(answered415).isPositive();
    }

    private Socket open(String partialRequest) throws IOException {
        Socket socket = new Socket();
        socket.connect(server.address(), 10_000);
        socket.getOutputStream().write(partialRequest.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        socket.setSoTimeout(1);
        return socket;
    }

    /**
     * True once the server has closed the connection (end of stream or reset), without waiting; what it sent
     * before is kept in {@link #received}.
     */
    private boolean closedByServer(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            int read;
            while ((read = in.read(buffer)) > 0) {
                received.merge(socket, new String(buffer, 0, read, StandardCharsets.ISO_8859_1), String::concat);
            }
            return read < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
