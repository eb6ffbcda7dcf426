package io.loadsmith.agent.it;

import java.util.List;

class Javalin7StallIT extends AbstractServerStallIT {
    @Override protected String mainClass() { return "io.loadsmith.agent.apps.Javalin7App"; }
    @Override protected List<String> libraries() {
        return List.of("/io/javalin/", "/org/eclipse/jetty/", "/org/jetbrains/", "/jakarta/servlet/", "/org/slf4j/", "/org/ow2/asm/");
    }
    @Override protected String target() { return "jetty12"; }
    @Override protected String expectedGate() { return "HttpChannelState$ChannelResponse#write"; }
}
