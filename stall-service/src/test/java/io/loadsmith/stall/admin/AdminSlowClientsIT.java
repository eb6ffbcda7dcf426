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
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The admin API against 200 clients that send half a request and wait, and 50 that connect and send
 * nothing, on real loopback sockets.
 */
@Timeout(120)
class AdminSlowClientsIT {

    private static final int SLOW_CLIENTS = 200;
    private static final int IDLE_CLIENTS = 50;

    private final StallController controller = new StallController(Clock.system(), new StallGate());
    private final AdminServer server = AdminServer.start(AdminConfig.builder().version("1.2.3").port(0).build(), controller);
    private final List<Socket> slow = new ArrayList<>();
    private final List<Socket> idle = new ArrayList<>();

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
    void stalls_and_disarm_answer_while_200_clients_trickle_and_50_idle_and_the_trickling_connections_are_closed() throws Exception {
        for (int i = 0; i < IDLE_CLIENTS; i++) {
            idle.add(open(""));
        }
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            slow.add(open(i % 2 == 0 ? "GET /sta" : "POST /disarm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"ha"));
        }
        AdminClient admin = new AdminClient(server.address());

        assertThat(admin.get("/stalls").status()).isEqualTo(200);
        assertThat(admin.postJson("/disarm", "").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> slow.stream().filter(AdminSlowClientsIT::closedByServer).count() == SLOW_CLIENTS);
    }

    private Socket open(String partialRequest) throws IOException {
        Socket socket = new Socket();
        socket.connect(server.address(), 10_000);
        socket.getOutputStream().write(partialRequest.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        socket.setSoTimeout(1);
        return socket;
    }

    /** True once the server has closed the connection (end of stream or reset), without waiting. */
    private static boolean closedByServer(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
