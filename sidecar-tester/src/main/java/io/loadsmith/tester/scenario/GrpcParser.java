package io.loadsmith.tester.scenario;

import static io.loadsmith.tester.scenario.Field.keys;

import io.loadsmith.tester.client.jetty.GrpcReflection;
import io.loadsmith.tester.grpc.GrpcException;
import io.loadsmith.tester.grpc.GrpcMethod;
import io.loadsmith.tester.grpc.GrpcStatus;
import io.loadsmith.tester.grpc.GrpcTarget;
import io.loadsmith.tester.grpc.ProtoSet;
import io.loadsmith.tester.scenario.Scenario.GrpcCall;
import io.loadsmith.tester.transport.TransportOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The gRPC parts of a scenario (docs/grpc.md): a {@code grpc://} or {@code grpcs://} target's
 * {@code target.grpc}, and the calls of its {@code GRPC pkg.Service/Method} steps, checked against the
 * descriptor set when the scenario is read. Errors name file, line and key, as {@link ScenarioParser}'s do.
 */
final class GrpcParser {

    private static final Set<String> GRPC = keys("descriptor", "reflection");
    /** How long each call of a reflection look-up may take. */
    private static final long REFLECTION_TIMEOUT_NANOS = 10_000_000_000L;
    /** Request fields of the call itself, which metadata must not set. */
    private static final Set<String> RESERVED = Set.of("content-type", "te", "user-agent", "host");
    private static final Pattern METADATA_KEY = Pattern.compile("[0-9a-z_.-]+");

    private GrpcParser() {
    }

    /** A {@code grpc://HOST:PORT} url: a host and a port, no path (the method names the path). */
    static URI url(Field field, URI url) {
        if (url.getHost() == null || url.getPort() < 0) {
            throw field.error("must be " + url.getScheme() + "://HOST:PORT, with its port (got \"" + url + "\")");
        }
        if (url.getRawPath() != null && !url.getRawPath().isEmpty() && !url.getRawPath().equals("/")
                || url.getRawQuery() != null) {
            throw field.error("must be " + url.getScheme() + "://HOST:PORT without a path or query: a GRPC step "
                    + "names the method (got \"" + url + "\")");
        }
        return URI.create(url.getScheme() + "://" + url.getRawAuthority());
    }

    /**
     * {@code target.grpc}: the descriptor set named by {@code descriptor}, relative to the scenario, or the
     * server's own by reflection ({@code reflection: true}), trusted as {@code tls} says.
     */
    static ProtoSet protos(Field.Mapping target, URI url, Path baseDir, TransportOptions.Tls tls) {
        if (!target.has("grpc")) {
            throw target.get("url").error("is a gRPC target, so it needs target.grpc: {descriptor: FILE} (a "
                    + "FileDescriptorSet: protoc --include_imports --descriptor_set_out=FILE your.proto) or "
                    + "{reflection: true}");
        }
        Field grpc = target.get("grpc");
        Field.Mapping f = grpc.entries(GRPC);
        if (f.has("reflection") == f.has("descriptor")) {
            throw grpc.error("needs one of descriptor (a FileDescriptorSet file) and reflection: true");
        }
        return f.has("reflection") ? reflected(f.get("reflection"), url, tls) : descriptor(f.get("descriptor"), baseDir);
    }

    private static ProtoSet descriptor(Field descriptor, Path baseDir) {
        Path file = baseDir.resolve(descriptor.string().trim()).normalize();
        if (!Files.isRegularFile(file)) {
            throw descriptor.error("names a file that does not exist: " + file);
        }
        try {
            return ProtoSet.read(file);
        } catch (IOException e) {
            throw descriptor.error("cannot be read: " + file + " (" + e.getMessage() + ")");
        } catch (GrpcException e) {
            throw descriptor.error(": " + file.getFileName() + " " + e.getMessage());
        }
    }

    /** The server's services by reflection, asked when the scenario is read. */
    private static ProtoSet reflected(Field reflection, URI url, TransportOptions.Tls tls) {
        String text = reflection.text().trim();
        if (!text.equals("true")) {
            throw reflection.error("must be true (or give descriptor: FILE instead; got " + Field.quote(text) + ")");
        }
        try {
            return GrpcReflection.fetch(url, tls, REFLECTION_TIMEOUT_NANOS);
        } catch (GrpcException e) {
            throw reflection.error("of " + url + " " + e.getMessage());
        }
    }

    /** The method a {@code request: GRPC pkg.Service/Method} names. */
    static GrpcMethod method(Field request, String name, ProtoSet protos) {
        if (protos == null) {
            throw request.error("is a gRPC call, which needs a grpc:// or grpcs:// target.url and target.grpc");
        }
        return protos.method(name).filter(m -> !m.streaming()).orElseThrow(() -> {
            if (protos.method(name).isPresent()) {
                return request.error("names " + name + ", a streaming method; only unary calls are sent");
            }
            String hint = Suggest.nearest(name, protos.methodNames()).map(s -> "; did you mean " + s + "?").orElse("");
            return request.error("names " + Field.quote(name) + ", which the descriptor set does not have (its methods: "
                    + String.join(", ", protos.methodNames()) + hint + ")");
        });
    }

    /** {@code metadata}: keys as gRPC sends them (lower case), none of the call's own fields. */
    static Map<String, Template> metadata(Map<String, Template> given, Field field) {
        Map<String, Template> metadata = new LinkedHashMap<>();
        given.forEach((key, value) -> {
            String name = key.strip().toLowerCase(Locale.ROOT);
            if (!METADATA_KEY.matcher(name).matches()) {
                throw field.error("has the key " + Field.quote(key) + ": metadata keys are letters, digits, - _ and .");
            }
            if (name.startsWith("grpc-") || RESERVED.contains(name)) {
                throw field.error("has the key " + Field.quote(key) + ", which the call sets itself (grpc-*, "
                        + String.join(", ", RESERVED) + ")");
            }
            metadata.put(name, value);
        });
        return metadata;
    }

    /** {@code check.grpc_status}: a status name, {@code OK} or {@code NOT_FOUND}. */
    static GrpcStatus status(Field field) {
        String text = field.text().trim();
        return GrpcStatus.named(text).orElseThrow(() -> {
            List<String> names = Arrays.stream(GrpcStatus.values()).map(Enum::name).toList();
            String hint = Suggest.nearest(text.toUpperCase(Locale.ROOT), names).map(s -> "; did you mean " + s + "?")
                    .orElse("");
            return field.error("must be a gRPC status name (" + String.join(", ", names) + hint + "; got "
                    + Field.quote(text) + ")");
        });
    }

    /**
     * The framed request messages of a step's {@code body}: one for a body without placeholders (or none: an
     * empty message), else one for each data row, so that a row whose JSON does not fit the message is an
     * error of the scenario, and no call maps JSON while it is sent.
     */
    static GrpcCall call(GrpcMethod method, Map<String, Template> metadata, long deadlineNanos, Field bodyField,
                         Template body, DataTable data) {
        List<byte[]> bodies = new ArrayList<>();
        if (body == null || body.isConstant()) {
            bodies.add(encode(method, body == null ? "{}" : body.render(name -> ""), bodyField, null));
        } else {
            for (int row = 0; row < data.size(); row++) {
                int r = row;
                bodies.add(encode(method, body.render(name -> data.value(r, name)), bodyField,
                        "row " + (row + 1) + " of " + data.file().getFileName()));
            }
        }
        return new GrpcCall(method, metadata, deadlineNanos, List.copyOf(bodies));
    }

    private static byte[] encode(GrpcMethod method, String json, Field field, String row) {
        try {
            return method.encode(json);
        } catch (GrpcException e) {
            throw field.error((row == null ? "" : "of " + row + " ") + e.getMessage());
        }
    }
}
