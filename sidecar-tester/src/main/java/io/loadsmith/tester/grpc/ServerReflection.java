package io.loadsmith.tester.grpc;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A server's descriptor set by gRPC server reflection (grpc/doc/server-reflection.md): its services
 * ({@code list_services}), the files that define them ({@code file_containing_symbol}), then any file they
 * import that the answers left out ({@code file_by_filename}). Each round is one call of the streaming method
 * {@code ServerReflectionInfo}, all its requests sent at once; {@code grpc.reflection.v1} first, and
 * {@code v1alpha} for a server that has only the older one. The messages are written and read by hand (a few
 * fields of reflection.proto), so no generated code is needed; the call itself is the {@link Caller}'s.
 */
public final class ServerReflection {

    static final String V1 = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
    static final String V1_ALPHA = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";
    /** Rounds of file_by_filename, enough for any chain of imports a service has. */
    private static final int MAX_ROUNDS = 16;

    // ServerReflectionRequest fields
    private static final int FILE_BY_FILENAME = 3;
    private static final int FILE_CONTAINING_SYMBOL = 4;
    private static final int LIST_SERVICES = 7;
    // ServerReflectionResponse fields
    private static final int FILE_DESCRIPTOR_RESPONSE = 4;
    private static final int LIST_SERVICES_RESPONSE = 6;
    private static final int ERROR_RESPONSE = 7;

    /** One call of a reflection method: the answer's body when its status is OK. */
    @FunctionalInterface
    public interface Caller {
        /**
         * @param path the method's HTTP/2 path
         * @param body the framed requests
         * @throws GrpcCallException when the answer's status is not OK
         */
        byte[] call(String path, byte[] body);
    }

    /** A call whose answer's status was not OK. */
    public static final class GrpcCallException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final GrpcStatus status;

        public GrpcCallException(GrpcStatus status, String message) {
            super("grpc-status " + status + (message == null || message.isEmpty() ? "" : ": " + message));
            this.status = status;
        }

        public GrpcStatus status() {
            return status;
        }
    }

    private ServerReflection() {
    }

    /**
     * The services the server reflects, with every file they need.
     *
     * @throws GrpcException when the server refuses reflection or its answers do not make a descriptor set
     */
    public static ProtoSet fetch(Caller caller) {
        String path = V1;
        List<String> services;
        try {
            services = services(caller.call(path, request(LIST_SERVICES, List.of(""))));
        } catch (GrpcCallException e) {
            if (e.status() != GrpcStatus.UNIMPLEMENTED) {
                throw refused(e);
            }
            path = V1_ALPHA;
            try {
                services = services(caller.call(path, request(LIST_SERVICES, List.of(""))));
            } catch (GrpcCallException alpha) {
                throw refused(alpha);
            }
        }
        services.removeIf(name -> name.startsWith("grpc.reflection."));
        if (services.isEmpty()) {
            throw new GrpcException("the server reflects no service but reflection itself");
        }
        Map<String, FileDescriptorProto> files = new LinkedHashMap<>();
        List<String> wanted = services;
        int field = FILE_CONTAINING_SYMBOL;
        for (int round = 0; !wanted.isEmpty(); round++) {
            if (round == MAX_ROUNDS) {
                throw new GrpcException("the server's reflection did not give " + wanted + " after " + round + " rounds");
            }
            try {
                files(caller.call(path, request(field, wanted)), files);
            } catch (GrpcCallException e) {
                throw refused(e);
            }
            List<String> missing = new ArrayList<>();
            for (FileDescriptorProto file : files.values()) {
                for (String dependency : file.getDependencyList()) {
                    if (!files.containsKey(dependency) && !missing.contains(dependency)) {
                        missing.add(dependency);
                    }
                }
            }
            if (field == FILE_BY_FILENAME && missing.equals(wanted)) {
                throw new GrpcException("the server's reflection does not give " + String.join(", ", missing));
            }
            wanted = missing;
            field = FILE_BY_FILENAME;
        }
        return ProtoSet.parse(FileDescriptorSet.newBuilder().addAllFile(files.values()).build().toByteArray());
    }

    private static GrpcException refused(GrpcCallException e) {
        return new GrpcException("refused by the server (" + e.getMessage() + ")", e);
    }

    /** One framed ServerReflectionRequest per value, each with field {@code field} set to it. */
    static byte[] request(int field, List<String> values) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (String value : values) {
            try {
                ByteArrayOutputStream message = new ByteArrayOutputStream();
                CodedOutputStream out = CodedOutputStream.newInstance(message);
                out.writeString(field, value);
                out.flush();
                all.write(GrpcFraming.frame(message.toByteArray()));
            } catch (IOException e) {
                throw new IllegalStateException(e); // a byte array does not fail
            }
        }
        return all.toByteArray();
    }

    /** The service names of a list_services answer. */
    static List<String> services(byte[] body) {
        List<String> names = new ArrayList<>();
        for (byte[] response : GrpcFraming.unframeAll(body)) {
            for (byte[] service : fields(answer(response, LIST_SERVICES_RESPONSE), 1)) {
                for (byte[] name : fields(service, 1)) {
                    names.add(new String(name, StandardCharsets.UTF_8));
                }
            }
        }
        return names;
    }

    /** Adds the files of file descriptor answers to {@code files}, by name. */
    static void files(byte[] body, Map<String, FileDescriptorProto> files) {
        for (byte[] response : GrpcFraming.unframeAll(body)) {
            for (byte[] file : fields(answer(response, FILE_DESCRIPTOR_RESPONSE), 1)) {
                try {
                    FileDescriptorProto proto = FileDescriptorProto.parseFrom(file);
                    files.putIfAbsent(proto.getName(), proto);
                } catch (InvalidProtocolBufferException e) {
                    throw new GrpcException("the server's reflection gave a file that is not a FileDescriptorProto", e);
                }
            }
        }
    }

    /** The field {@code expected} of a ServerReflectionResponse; its error_response as an exception. */
    private static byte[] answer(byte[] response, int expected) {
        List<byte[]> errors = fields(response, ERROR_RESPONSE);
        if (!errors.isEmpty()) {
            List<byte[]> message = fields(errors.get(0), 2);
            throw new GrpcException("the server's reflection answered an error"
                    + (message.isEmpty() ? "" : ": " + new String(message.get(0), StandardCharsets.UTF_8)));
        }
        List<byte[]> found = fields(response, expected);
        if (found.isEmpty()) {
            throw new GrpcException("the server's reflection answered without the field " + expected);
        }
        return found.get(0);
    }

    /** The bytes of every length-delimited field {@code number} of a message, in order. */
    private static List<byte[]> fields(byte[] message, int number) {
        List<byte[]> found = new ArrayList<>();
        CodedInputStream in = CodedInputStream.newInstance(message);
        try {
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (tag >>> 3 == number && (tag & 7) == 2) {
                    found.add(in.readByteArray());
                } else if (!in.skipField(tag)) {
                    break;
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw new GrpcException("the server's reflection answer is not a reflection message: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IllegalStateException(e); // a byte array does not fail
        }
        return found;
    }
}
