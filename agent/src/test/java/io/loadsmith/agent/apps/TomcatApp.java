package io.loadsmith.agent.apps;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;

/** A service on embedded Tomcat. */
public final class TomcatApp {

    public static void main(String[] args) throws Exception {
        AppMain.ready(start(false));
        AppMain.untilStdinCloses();
    }

    /**
     * Serves {@code /fast} and {@code /slow?ms=N} on 127.0.0.1 and a free port, which it returns. With
     * {@code virtualThreads} its requests run on virtual threads (the connector's {@code useVirtualThreads},
     * Java 21+) and it answers the kind of thread that ran the servlet ("virtual"); else "ok".
     */
    static int start(boolean virtualThreads) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("tomcat-app").toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        if (virtualThreads && !tomcat.getConnector().setProperty("useVirtualThreads", "true")) {
            throw new IllegalStateException("this Tomcat has no useVirtualThreads");
        }
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "app", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                AppMain.work(AppMain.workMillis(request.getQueryString()));
                response.setContentType("text/plain");
                response.getWriter().write(virtualThreads ? VirtualThreads.kindOfCurrentThread() : "ok");
            }
        });
        context.addServletMappingDecoded("/*", "app");
        tomcat.start();
        return tomcat.getConnector().getLocalPort();
    }
}
