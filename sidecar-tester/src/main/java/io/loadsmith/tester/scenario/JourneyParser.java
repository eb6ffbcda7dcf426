package io.loadsmith.tester.scenario;

import static io.loadsmith.tester.scenario.Field.keys;

import io.loadsmith.tester.grpc.GrpcMethod;
import io.loadsmith.tester.grpc.GrpcStatus;
import io.loadsmith.tester.grpc.ProtoSet;
import io.loadsmith.tester.scenario.Scenario.Check;
import io.loadsmith.tester.scenario.Scenario.JourneySpec;
import io.loadsmith.tester.scenario.Scenario.Step;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a scenario's {@code journeys} (docs/scenarios.md): each journey's steps, their requests as templates
 * whose variables must be columns of the journey's data file. Errors name file, line and key, as
 * {@link ScenarioParser}'s do.
 */
final class JourneyParser {
    private static final Set<String> JOURNEY = keys("name", "weight", "data", "steps");
    private static final Set<String> STEP = keys("name", "request", "headers", "body", "check", "think", "metadata",
            "deadline");
    private static final Set<String> CHECK = keys("status", "json", "body_contains", "grpc_status");
    /** The method word of a gRPC call: {@code request: GRPC pkg.Service/Method}. */
    private static final String GRPC = "GRPC";
    private static final Set<String> METHODS = keys("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", GRPC);
    private static final Pattern REQUEST = Pattern.compile("\\s*(\\S+)\\s+(\\S.*?)\\s*");

    private JourneyParser() {}

    /**
     * The journeys of the {@code journeys} list; {@code baseDir} resolves their data files, {@code grpc} is the
     * target's descriptor set (null: an HTTP target, whose steps are HTTP requests; else every step is a call).
     */
    static List<JourneySpec> read(Field field, Path baseDir, ProtoSet grpc) {
        List<Field> items = field.sequence("journeys");
        if (items.isEmpty()) {
            throw field.error("must have at least one journey (or leave journeys out to GET target.url)");
        }
        List<JourneySpec> journeys = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            Field item = items.get(i);
            Field.Mapping f = item.entries(JOURNEY);
            String name = f.trimmed("name", "journey" + (i + 1));
            if (!names.add(name)) {
                throw (f.has("name") ? f.get("name") : item).error("repeats the journey name \"" + name + "\"");
            }
            double weight = f.number("weight", 0, true, 1);
            DataTable data = f.has("data") ? data(f.get("data"), baseDir) : null;
            Field stepsField = f.required("steps");
            List<Step> steps = new ArrayList<>();
            for (Field s : stepsField.sequence("steps like {request: GET /path}")) {
                steps.add(step(s, data, grpc));
            }
            if (steps.isEmpty()) {
                throw stepsField.error("must have at least one step");
            }
            journeys.add(new JourneySpec(name, weight, data, List.copyOf(steps)));
        }
        return journeys;
    }

    /** The CSV file a journey's {@code data} names, relative to the scenario. */
    private static DataTable data(Field d, Path baseDir) {
        Path path = baseDir.resolve(d.string().trim()).normalize();
        try {
            return DataTable.read(path);
        } catch (NoSuchFileException e) {
            throw d.error("names a file that does not exist: " + path);
        } catch (IOException e) {
            throw d.error("cannot be read: " + path + " (" + e.getMessage() + ")");
        } catch (IllegalArgumentException e) {
            throw d.error(": " + path.getFileName() + " " + e.getMessage());
        }
    }

    private static Step step(Field field, DataTable data, ProtoSet grpc) {
        Field.Mapping f = field.entries(STEP);
        Field request = f.required("request");
        Matcher m = REQUEST.matcher(request.text());
        if (!m.matches()) {
            throw request.error("must be \"METHOD /path\", e.g. \"GET /score/${customer_id}\" (got \""
                    + request.text().trim() + "\")");
        }
        String method = m.group(1);
        if (!METHODS.contains(method)) {
            String hint = Suggest.nearest(method.toUpperCase(), METHODS).map(s -> "; did you mean " + s + "?").orElse("");
            throw request.error("has an unknown method \"" + method + "\" (one of " + String.join(", ", METHODS) + hint
                    + ")");
        }
        if (method.equals(GRPC)) {
            return grpcStep(f, request, m.group(2), data, grpc);
        }
        if (grpc != null) {
            throw request.error("is an HTTP request, and target.url is a gRPC target: its steps are calls like "
                    + "\"GRPC pkg.Service/Method\"");
        }
        for (String key : List.of("metadata", "deadline")) {
            if (f.has(key)) {
                throw f.get(key).error("is only for a GRPC step (an HTTP request has headers and no deadline)");
            }
        }
        String pathText = m.group(2);
        if (!(pathText.startsWith("/") || pathText.startsWith("http://") || pathText.startsWith("https://"))) {
            throw request.error("needs a path starting with / (got \"" + pathText + "\")");
        }
        Template path = template(request, pathText, data);
        Map<String, Template> headers = f.has("headers")
                ? templates(f.get("headers"), "header names to values", data) : Map.of();
        Template body = f.optional("body").map(b -> template(b, b.text(), data)).orElse(null);
        Check check = f.has("check") ? check(f.get("check"), data, false) : null;
        long think = f.duration("think", 0, false, 0);
        String name = f.trimmed("name", method + " " + pathText);
        return new Step(name, method, path, headers, body, check, think, null);
    }

    /** A {@code GRPC pkg.Service/Method} step: a unary call of a method of the target's descriptor set. */
    private static Step grpcStep(Field.Mapping f, Field request, String methodName, DataTable data, ProtoSet grpc) {
        GrpcMethod method = GrpcParser.method(request, methodName, grpc);
        if (f.has("headers")) {
            throw f.get("headers").error("is for HTTP requests; a GRPC step sends metadata: {key: value}");
        }
        Map<String, Template> metadata = f.has("metadata")
                ? GrpcParser.metadata(templates(f.get("metadata"), "metadata keys to values", data), f.get("metadata"))
                : Map.of();
        long deadline = f.duration("deadline", 0, true, 0);
        Field bodyField = f.optional("body").orElse(request);
        Template body = f.optional("body").map(b -> template(b, b.text(), data)).orElse(null);
        Scenario.GrpcCall call = GrpcParser.call(method, metadata, deadline, bodyField, body, data);
        Check check = f.has("check") ? check(f.get("check"), data, true) : null;
        long think = f.duration("think", 0, false, 0);
        String name = f.trimmed("name", GRPC + " " + method.name());
        return new Step(name, "POST", Template.parse(method.path()), Map.of(), null, check, think, call);
    }

    /** A step's {@code check}; a gRPC call's has {@code grpc_status} and {@code json}, an HTTP request's no grpc_status. */
    private static Check check(Field field, DataTable data, boolean grpc) {
        Field.Mapping f = field.entries(CHECK);
        for (String key : grpc ? List.of("status", "body_contains") : List.of("grpc_status")) {
            if (f.has(key)) {
                throw f.get(key).error(grpc ? "is for HTTP requests; a GRPC step checks grpc_status and json"
                        : "is only for a GRPC step (an HTTP request checks status)");
            }
        }
        Integer status = f.optional("status").map(s -> (int) s.integer(100, 599)).orElse(null);
        Map<String, Template> json = f.has("json") ? templates(f.get("json"), "JSON field paths to values", data) : Map.of();
        Template contains = f.optional("body_contains").map(c -> template(c, c.string(), data)).orElse(null);
        GrpcStatus grpcStatus = !grpc ? null : f.optional("grpc_status").map(GrpcParser::status).orElse(GrpcStatus.OK);
        return new Check(status, json, contains, grpcStatus);
    }

    /**
     * A mapping of free-form keys to templates (headers, json checks), as an unmodifiable map in the file's
     * order ({@code Map.copyOf} would iterate in an order that changes from one JVM to the next).
     */
    private static Map<String, Template> templates(Field field, String expected, DataTable data) {
        Map<String, Template> templates = new LinkedHashMap<>();
        for (Map.Entry<String, Field> e : field.freeMapping(expected).entrySet()) {
            templates.put(e.getKey(), template(e.getValue(), e.getValue().text(), data));
        }
        return Collections.unmodifiableMap(templates);
    }

    private static Template template(Field field, String text, DataTable data) {
        Template template;
        try {
            template = Template.parse(text);
        } catch (IllegalArgumentException e) {
            throw field.error(e.getMessage());
        }
        for (String variable : template.variables()) {
            if (data == null) {
                throw field.error("uses ${" + variable + "} but the journey has no data file (add data: file.csv)");
            }
            if (!data.hasColumn(variable)) {
                String hint = Suggest.nearest(variable, data.columns()).map(s -> "; did you mean " + s + "?").orElse("");
                throw field.error("uses ${" + variable + "}, which is not a column of " + data.file().getFileName()
                        + " (columns: " + String.join(", ", data.columns()) + hint + ")");
            }
        }
        return template;
    }
}
