package io.loadsmith.agent.target;

import io.loadsmith.agent.AgentOptions;
import io.loadsmith.agent.target.grpc.GrpcTarget;
import io.loadsmith.agent.target.jdkhttp.JdkHttpTarget;
import io.loadsmith.agent.target.jetty12.Jetty12Target;
import io.loadsmith.agent.target.jetty9.Jetty9Target;
import io.loadsmith.agent.target.method.MethodTarget;
import io.loadsmith.agent.target.netty.NettyTarget;
import io.loadsmith.agent.target.servlet.ServletTarget;
import io.loadsmith.agent.target.tomcat.TomcatTarget;
import io.loadsmith.agent.target.undertow.UndertowTarget;
import java.util.ArrayList;
import java.util.List;

/** The targets the agent knows, and the ones a set of options switches on. */
public final class Targets {

    private Targets() {
    }

    /** Every library target (without {@code method}), in the order of {@link AgentOptions#KNOWN_TARGETS}. */
    public static List<Target> libraries() {
        return List.of(Jetty12Target.target(), Jetty9Target.target(), ServletTarget.target(), TomcatTarget.target(),
                NettyTarget.target(), UndertowTarget.target(), JdkHttpTarget.target(),
                GrpcTarget.target());
    }

    /** The targets {@code options} switch on, {@code method} last when methods were named. */
    public static List<Target> enabled(AgentOptions options) {
        List<Target> result = new ArrayList<>();
        for (Target target : libraries()) {
            if (options.enables(target.name())) {
                result.add(target);
            }
        }
        if (!options.methods().isEmpty()) {
            result.add(MethodTarget.target(options.methods()));
        }
        return result;
    }
}
