package io.loadsmith.agent.target.servlet;

import static io.loadsmith.agent.target.MethodMatcher.named;
import static io.loadsmith.agent.target.MethodMatcher.takesArgument;
import static io.loadsmith.agent.target.MethodMatcher.takesArguments;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.List;

/**
 * Any Servlet container (the fallback for servers without a target of their own): the gate at the
 * start and at the end of {@code HttpServlet#service(HttpServletRequest, HttpServletResponse)}, in
 * both the {@code jakarta.servlet} and the {@code javax.servlet} API. The end gate holds a response
 * whose servlet returned during a stall, before the container commits it. Servlets that override that
 * method without calling {@code super} are not seen: name them with {@code method=}.
 */
public final class ServletTarget {

    private ServletTarget() {
    }

    public static Target target() {
        return new Target("servlet", "any jakarta.servlet or javax.servlet container (fallback)",
                List.of(),
                List.of(
                        Gate.around("jakarta.servlet.http.HttpServlet",
                                named("service").and(takesArguments(2))
                                        .and(takesArgument(0, "jakarta.servlet.http.HttpServletRequest")),
                                "service(HttpServletRequest, HttpServletResponse)").withResponseArgument(1),
                        Gate.around("javax.servlet.http.HttpServlet",
                                named("service").and(takesArguments(2))
                                        .and(takesArgument(0, "javax.servlet.http.HttpServletRequest")),
                                "service(HttpServletRequest, HttpServletResponse)").withResponseArgument(1)));
    }
}
