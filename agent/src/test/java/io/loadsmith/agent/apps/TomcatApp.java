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
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("tomcat-app").toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "app", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                AppMain.work(AppMain.workMillis(request.getQueryString()));
                response.setContentType("text/plain");
                response.getWriter().write("ok");
            }
        });
        context.addServletMappingDecoded("/*", "app");
        tomcat.start();
        AppMain.ready(tomcat.getConnector().getLocalPort());
        AppMain.untilStdinCloses();
    }
}
