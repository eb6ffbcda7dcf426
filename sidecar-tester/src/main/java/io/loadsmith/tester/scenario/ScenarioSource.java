package io.loadsmith.tester.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.grpc.GrpcException;
import io.loadsmith.tester.grpc.GrpcMethod;
import io.loadsmith.tester.grpc.GrpcStatus;
import io.loadsmith.tester.scenario.Scenario.Check;
import io.loadsmith.tester.scenario.Scenario.JourneySpec;
import io.loadsmith.tester.scenario.Scenario.Step;
import io.loadsmith.tester.schedule.ArrivalStreams;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.ResponseCheck;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@link RequestSource} of a scenario's journeys. For arrival k: the journey is drawn from the stream
 * {@code "journey"} by weight, the data row of that journey from the stream {@code "feeder:<journey>"},
 * both with {@link ArrivalStreams} keyed by k, so the draws never depend on the order arrivals are handled
 * in and never touch the arrival-time stream. Step ids number every step of every journey in file order
 * (journey 0's steps first); a step's name in results is {@code journey/step} when there are several
 * journeys, else the step's own name.
 */
public final class ScenarioSource implements RequestSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final List<JourneySpec> journeys;
    private final double[] cumulativeWeights;
    private final int[] firstStepId;
    private final String[] stepNames;
    private final ArrivalStreams journeyStream;
    private final ArrivalStreams[] feederStreams;
    private final StepTemplate[][] templates;
    /** By step id: the check when it uses no placeholder (empty: none), else null (bound per request). */
    private final Optional<ResponseCheck>[] fixedChecks;
    /** By step id, of a constant step with a fixed check: its request by connection + 1, made once. */
    private final RequestSpec[][] constants;

    /**
     * @param baseUri the target's URL (paths are appended to it)
     * @param seed    the run's seed
     */
    public ScenarioSource(URI baseUri, List<JourneySpec> journeys, long seed) {
        if (journeys.isEmpty()) {
            throw new IllegalArgumentException("no journeys: use RequestSource.get(url)");
        }
        String text = baseUri.toString();
        this.base = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
        this.journeys = List.copyOf(journeys);
        this.cumulativeWeights = new double[journeys.size()];
        this.firstStepId = new int[journeys.size()];
        this.feederStreams = new ArrivalStreams[journeys.size()];
        double total = 0;
        int steps = 0;
        for (int i = 0; i < journeys.size(); i++) {
            total += journeys.get(i).weight();
            cumulativeWeights[i] = total;
            firstStepId[i] = steps;
            steps += journeys.get(i).steps().size();
            feederStreams[i] = ArrivalStreams.of(seed, "feeder:" + journeys.get(i).name());
        }
        for (int i = 0; i < cumulativeWeights.length; i++) {
            cumulativeWeights[i] /= total;
        }
        this.stepNames = new String[steps];
        for (int i = 0; i < journeys.size(); i++) {
            JourneySpec journey = journeys.get(i);
            for (int s = 0; s < journey.steps().size(); s++) {
                String name = journey.steps().get(s).name();
                stepNames[firstStepId[i] + s] = journeys.size() == 1 ? name : journey.name() + "/" + name;
            }
        }
        this.journeyStream = ArrivalStreams.of(seed, "journey");
        this.templates = new StepTemplate[journeys.size()][];
        @SuppressWarnings("unchecked")
        Optional<ResponseCheck>[] checks = new Optional[steps];
        this.fixedChecks = checks;
        this.constants = new RequestSpec[steps][];
        for (int i = 0; i < journeys.size(); i++) {
            JourneySpec journey = journeys.get(i);
            templates[i] = new StepTemplate[journey.steps().size()];
            for (int s = 0; s < journey.steps().size(); s++) {
                Step step = journey.steps().get(s);
                templates[i][s] = new StepTemplate(base, step, journey.data());
                if (fixedCheck(step.check())) {
                    checks[firstStepId[i] + s] = Optional.ofNullable(check(step, name -> ""));
                }
            }
        }
    }

    private static boolean fixedCheck(Check check) {
        return check == null || check.json().values().stream().allMatch(Template::isConstant)
                && (check.bodyContains() == null || check.bodyContains().isConstant());
    }

    /** The journey (index) of arrival k. */
    public int journeyOf(long arrival) {
        if (journeys.size() == 1) {
            return 0;
        }
        double u = journeyStream.uniform(arrival);
        for (int i = 0; i < cumulativeWeights.length - 1; i++) {
            if (u < cumulativeWeights[i]) {
                return i;
            }
        }
        return cumulativeWeights.length - 1;
    }

    /** The data row of arrival k within its journey, or -1 when the journey has no data. */
    public int rowOf(long arrival, int journey) {
        DataTable data = journeys.get(journey).data();
        return data == null ? -1 : feederStreams[journey].nextInt(arrival, data.size());
    }

    @Override
    public RequestSpec request(long arrival, int position, int connection) {
        int j = journeyOf(arrival);
        JourneySpec journey = journeys.get(j);
        if (position >= journey.steps().size()) {
            return null;
        }
        Step step = journey.steps().get(position);
        StepTemplate template = templates[j][position];
        int id = firstStepId[j] + position;
        if (template.constant() && fixedChecks[id] != null) {
            return constantRequest(template, id, connection);
        }
        int row = rowOf(arrival, j);
        ResponseCheck check = fixedChecks[id] != null ? fixedChecks[id].orElse(null)
                : check(step, name -> journey.data().value(row, name));
        if (template.planned(row)) {
            return RequestSpec.templated(step.method(), template.endpoint(), template, row, check, connection, id);
        }
        return template.plain(row, check, connection, id);
    }

    /** The one request of a step without placeholders and with a fixed check, on connection k. */
    private RequestSpec constantRequest(StepTemplate template, int id, int connection) {
        RequestSpec[] byConnection = constants[id];
        int slot = connection + 1;
        if (byConnection == null || slot >= byConnection.length) {
            byConnection = constants[id] = Arrays.copyOf(byConnection == null ? new RequestSpec[0] : byConnection,
                    Math.max(slot + 1, 2 * (byConnection == null ? 1 : byConnection.length)));
        }
        RequestSpec spec = byConnection[slot];
        if (spec == null) {
            spec = byConnection[0] != null ? byConnection[0].onConnection(connection)
                    : template.plain(-1, fixedChecks[id].orElse(null), connection, id);
            byConnection[slot] = spec;
        }
        return spec;
    }

    @Override
    public long thinkNanos(long arrival, int position) {
        JourneySpec journey = journeys.get(journeyOf(arrival));
        return position < journey.steps().size() ? journey.steps().get(position).thinkNanos() : 0;
    }

    @Override
    public String stepName(int step) {
        return step >= 0 && step < stepNames.length ? stepNames[step] : "step" + step;
    }

    /**
     * The response check of a step with the arrival's data row bound; null when any status below 400 will do
     * (a gRPC call: status OK).
     */
    static ResponseCheck check(Step step, Function<String, String> values) {
        Check check = step.check();
        if (check == null) {
            return null;
        }
        Map<String, String> json = new LinkedHashMap<>();
        check.json().forEach((path, template) -> json.put(path, template.render(values)));
        if (step.grpc() != null) {
            return grpcCheck(step.grpc().method(), check.grpcStatus(), json);
        }
        Integer status = check.status();
        String contains = check.bodyContains() == null ? null : check.bodyContains().render(values);
        return (actualStatus, body) -> {
            if (status != null ? actualStatus != status : actualStatus >= 400) {
                return "status " + actualStatus + (status != null ? ", expected " + status : "");
            }
            if (contains != null && !new String(body, StandardCharsets.UTF_8).contains(contains)) {
                return "body does not contain \"" + contains + "\"";
            }
            return json.isEmpty() ? null : jsonFailure(body, json);
        };
    }

    /**
     * A gRPC call's check: the transport hands it the answer's gRPC status code and its body (the framed
     * answer message), whose JSON form (proto field names) the {@code json} paths are read from.
     */
    private static ResponseCheck grpcCheck(GrpcMethod method, GrpcStatus expected, Map<String, String> json) {
        return (code, body) -> {
            if (code != expected.code()) {
                return "grpc-status " + GrpcStatus.ofCode(code) + ", expected " + expected;
            }
            if (json.isEmpty()) {
                return null;
            }
            try {
                return jsonFailure(method.decode(body).getBytes(StandardCharsets.UTF_8), json);
            } catch (GrpcException e) {
                return e.getMessage();
            }
        };
    }

    /** The first of the {@code json} paths (dotted, a.b.0.c) whose value in {@code body} differs; null: none. */
    private static String jsonFailure(byte[] body, Map<String, String> json) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            return "body is not JSON";
        }
        for (Map.Entry<String, String> e : json.entrySet()) {
            JsonNode node = root;
            for (String part : e.getKey().split("\\.")) {
                node = node == null ? null : node.isArray() && part.matches("[0-9]+") ? node.get(Integer.parseInt(part))
                        : node.get(part);
            }
            if (node == null || node.isMissingNode()) {
                return "json " + e.getKey() + " is missing";
            }
            String actual = node.isValueNode() ? node.asText() : node.toString();
            if (!actual.equals(e.getValue()) && !numbersEqual(actual, e.getValue())) {
                return "json " + e.getKey() + " is " + actual + ", expected " + e.getValue();
            }
        }
        return null;
    }

    private static boolean numbersEqual(String a, String b) {
        try {
            return new java.math.BigDecimal(a).compareTo(new java.math.BigDecimal(b)) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
