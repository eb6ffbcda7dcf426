package io.loadsmith.tester.scenario;

import io.loadsmith.tester.client.http1.RequestPlan;
import io.loadsmith.tester.grpc.GrpcHeaders;
import io.loadsmith.tester.scenario.Scenario.Step;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.RequestTemplate;
import io.loadsmith.tester.transport.ResponseCheck;
import io.netty.buffer.ByteBuf;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One journey step's request, compiled once: as text ({@link #plain}, a URI, headers and a body per
 * request), and, where it can be, as a {@link RequestPlan} that writes a data row's values straight into
 * the transport's buffer ({@link #encode}). A row is {@link #planned} when every value it puts in the step
 * fits where it goes ({@link RequestPlan#fitsTarget} and the others); any other row, and every row of a
 * step the plan cannot take (a value in the host, a {@code #}, a URI that does not parse), is rendered as
 * text, as before plans, so it is sent, or refused, exactly as then.
 */
final class StepTemplate implements RequestTemplate {

    private final String base;
    private final Step step;
    private final DataTable data;
    private final boolean constant;
    private final RequestPlan plan; // null: every row as text
    private final BitSet planned;

    /**
     * @param base the target's URL without a trailing {@code /}
     * @param data the journey's rows; null when it has none
     */
    StepTemplate(String base, Step step, DataTable data) {
        this.base = base;
        this.step = step;
        this.data = data;
        this.constant = step.path().isConstant() && (step.body() == null || step.body().isConstant())
                && step.headers().values().stream().allMatch(Template::isConstant)
                && (step.grpc() == null || step.grpc().bodies().size() == 1
                && step.grpc().metadata().values().stream().allMatch(Template::isConstant));
        // a gRPC call is HTTP/2, written by Jetty: no HTTP/1.1 plan
        this.plan = constant || data == null || step.grpc() != null ? null : plan(base, step, data);
        this.planned = new BitSet();
        if (plan != null) {
            for (int row = 0; row < data.size(); row++) {
                if (fits(data.row(row))) {
                    planned.set(row);
                }
            }
        }
    }

    private static RequestPlan plan(String base, Step step, DataTable data) {
        List<String> pathLiterals = step.path().literals();
        if (pathLiterals.get(0).isEmpty()) {
            return null;
        }
        try {
            RequestPlan.PlanBuilder builder = RequestPlan.builder(step.method());
            if (pathLiterals.get(0).startsWith("/")) {
                List<String> absolute = new java.util.ArrayList<>(pathLiterals);
                absolute.set(0, base + pathLiterals.get(0));
                builder.target(absolute, columns(step.path(), data));
            } else {
                builder.target(pathLiterals, columns(step.path(), data));
            }
            step.headers().forEach((name, template) -> builder.header(name, template.literals(), columns(template, data)));
            if (step.body() != null) {
                builder.body(step.body().literals(), columns(step.body(), data));
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            return null; // rendered as text, which sends or refuses it as it always did
        }
    }

    private static int[] columns(Template template, DataTable data) {
        return template.placeholders().stream().mapToInt(data::columnIndex).toArray();
    }

    private boolean fits(String[] row) {
        if (!fits(step.path(), row, RequestPlan::fitsTarget)) {
            return false;
        }
        for (Template header : step.headers().values()) {
            if (!fits(header, row, RequestPlan::fitsHeader)) {
                return false;
            }
        }
        return step.body() == null || fits(step.body(), row, RequestPlan::fitsBody);
    }

    private boolean fits(Template template, String[] row, Predicate<String> fits) {
        for (String name : template.placeholders()) {
            if (!fits.test(row[data.columnIndex(name)])) {
                return false;
            }
        }
        return true;
    }

    /** Whether the step has no placeholder: its request is the same for every row. */
    boolean constant() {
        return constant;
    }

    /** Whether row {@code row} is written by the plan ({@link #encode}) rather than rendered as text. */
    boolean planned(int row) {
        return plan != null && row >= 0 && planned.get(row);
    }

    /** The endpoint of a planned request. */
    URI endpoint() {
        return plan.endpoint();
    }

    /** The request of data row {@code row} (-1: none) as text: a URI, headers and a body of its own. */
    RequestSpec plain(int row, ResponseCheck check, int connection, int stepId) {
        Function<String, String> values = row < 0 ? name -> "" : name -> data.value(row, name);
        String path = step.path().render(values);
        URI uri = URI.create(path.startsWith("/") ? base + path : path);
        if (step.grpc() != null) {
            Scenario.GrpcCall call = step.grpc();
            return new RequestSpec(step.method(), uri, GrpcHeaders.request(rendered(call.metadata(), values),
                    call.deadlineNanos()), call.body(row), check, connection, stepId);
        }
        byte[] body = step.body() == null ? null : step.body().render(values).getBytes(StandardCharsets.UTF_8);
        return new RequestSpec(step.method(), uri, rendered(step.headers(), values), body, check, connection, stepId);
    }

    /** Header templates filled from a row, in their order. */
    private static Map<String, String> rendered(Map<String, Template> templates, Function<String, String> values) {
        if (templates.isEmpty()) {
            return Map.of();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        templates.forEach((name, template) -> headers.put(name, template.render(values)));
        return headers;
    }

    @Override
    public RequestSpec render(RequestSpec spec) {
        return plain(spec.row(), spec.check(), spec.connection(), spec.step());
    }

    @Override
    public void encode(RequestSpec spec, ByteBuf out) {
        plan.encode(data.row(spec.row()), out);
    }
}
