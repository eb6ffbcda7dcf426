package io.loadsmith.tester.grpc;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;

/**
 * One method of a {@link ProtoSet}: its HTTP/2 path, and its messages mapped between JSON (protobuf's JSON
 * mapping: a field by its proto name or its lowerCamelCase JSON name) and framed bytes. Immutable and
 * thread-safe.
 */
public final class GrpcMethod {

    /** Requests: a field the message lacks is an error, not dropped. */
    private static final JsonFormat.Parser PARSER = JsonFormat.parser();
    /**
     * Answers: proto field names (what a check's {@code json:} paths name, as in the .proto file), and fields
     * at their default value written too, so that a check of {@code score: 0} finds the field.
     */
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().preservingProtoFieldNames()
            .alwaysPrintFieldsWithNoPresence().omittingInsignificantWhitespace();

    private final MethodDescriptor method;
    private final String name;

    GrpcMethod(MethodDescriptor method) {
        this.method = method;
        this.name = method.getService().getFullName() + "/" + method.getName();
    }

    /** {@code pkg.Service/Method}. */
    public String name() {
        return name;
    }

    /** The HTTP/2 {@code :path} of a call: {@code /pkg.Service/Method}. */
    public String path() {
        return "/" + name;
    }

    /** Whether the method streams requests or answers (only unary calls are sent). */
    public boolean streaming() {
        return method.isClientStreaming() || method.isServerStreaming();
    }

    /** The full name of the request message, e.g. {@code scoring.ScoreRequest}. */
    public String inputName() {
        return method.getInputType().getFullName();
    }

    /** The full name of the answer message. */
    public String outputName() {
        return method.getOutputType().getFullName();
    }

    /**
     * The framed request message of a JSON text.
     *
     * @throws GrpcException naming what does not fit the request message: a field it lacks, a value of the
     *                       wrong type, text that is not JSON
     */
    public byte[] encode(String json) {
        return GrpcFraming.frame(parse(method.getInputType(), json).toByteArray());
    }

    /**
     * The answer message of a unary answer's body as JSON (proto field names, default values included).
     *
     * @throws GrpcException when the body is not one uncompressed answer message
     */
    public String decode(byte[] body) {
        byte[] message = GrpcFraming.unframe(body);
        try {
            return PRINTER.print(DynamicMessage.parseFrom(method.getOutputType(), message));
        } catch (InvalidProtocolBufferException e) {
            throw new GrpcException("the answer is not a " + outputName() + ": " + e.getMessage(), e);
        }
    }

    private static DynamicMessage parse(Descriptor type, String json) {
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
        try {
            PARSER.merge(json, builder);
        } catch (InvalidProtocolBufferException e) {
            throw new GrpcException("does not fit " + type.getFullName() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            // JsonFormat reports some malformed JSON as gson's unchecked exceptions
            throw new GrpcException("is not JSON for " + type.getFullName() + ": " + e.getMessage(), e);
        }
        return builder.build();
    }

    @Override
    public String toString() {
        return name;
    }
}
