package io.loadsmith.tester.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerReflectionTest {

    private static final FileDescriptorProto TYPES = FileDescriptorProto.newBuilder().setName("types.proto")
            .setPackage("demo").setSyntax("proto3")
            .addMessageType(DescriptorProto.newBuilder().setName("Key").addField(FieldDescriptorProto.newBuilder()
                    .setName("id").setNumber(1).setType(FieldDescriptorProto.Type.TYPE_INT64)))
            .build();
    private static final FileDescriptorProto API = FileDescriptorProto.newBuilder().setName("api.proto")
            .setPackage("demo").setSyntax("proto3").addDependency("types.proto")
            .addService(ServiceDescriptorProto.newBuilder().setName("Api").addMethod(MethodDescriptorProto
                    .newBuilder().setName("Get").setInputType(".demo.Key").setOutputType(".demo.Key")))
            .build();

    /** What the fake server was asked, one line per request: "version field value". */
    private final List<String> asked = new ArrayList<>();

    /**
     * A server that reflects demo.Api on {@code path} only (UNIMPLEMENTED elsewhere), and, like some servers,
     * gives a symbol's file without the files it imports.
     */
    private ServerReflection.Caller server(String path) {
        return (callPath, body) -> {
            List<byte[]> answers = new ArrayList<>();
            for (byte[] request : GrpcFraming.unframeAll(body)) {
                int[] field = new int[1];
                String value = stringField(request, field);
                asked.add(callPath.split("\\.")[2] + " " + field[0] + " " + value);
                if (!callPath.equals(path)) {
                    throw new ServerReflection.GrpcCallException(GrpcStatus.UNIMPLEMENTED, "no such method");
                }
                answers.add(switch (field[0]) {
                    case 7 -> message(6, message(1, message(1, bytes("demo.Api")),
                            message(1, bytes("grpc.reflection.v1.ServerReflection"))));
                    case 4 -> message(4, message(1, API.toByteArray()));
                    case 3 -> value.equals("types.proto") ? message(4, message(1, TYPES.toByteArray()))
                            : message(7, message(2, bytes("not found: " + value)));
                    default -> throw new AssertionError(field[0]);
                });
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            answers.forEach(a -> out.writeBytes(GrpcFraming.frame(a)));
            return out.toByteArray();
        };
    }

    @Test
    void services_then_their_files_then_the_files_they_import() {
        ProtoSet set = ServerReflection.fetch(server(ServerReflection.V1));

        assertThat(set.methodNames()).containsExactly("demo.Api/Get");
        assertThat(set.method("demo.Api/Get").orElseThrow().inputName()).isEqualTo("demo.Key");
        assertThat(asked).containsExactly("v1 7 ", "v1 4 demo.Api", "v1 3 types.proto");
    }

    @Test
    void a_server_with_only_v1alpha_is_asked_there() {
        ProtoSet set = ServerReflection.fetch(server(ServerReflection.V1_ALPHA));

        assertThat(set.methodNames()).containsExactly("demo.Api/Get");
        assertThat(asked).containsExactly("v1 7 ", "v1alpha 7 ", "v1alpha 4 demo.Api", "v1alpha 3 types.proto");
    }

    @Test
    void a_server_without_reflection_refuses_it_with_its_status() {
        assertThatThrownBy(() -> ServerReflection.fetch(server("/none")))
                .isInstanceOf(GrpcException.class)
                .hasMessage("refused by the server (grpc-status UNIMPLEMENTED: no such method)");
    }

    @Test
    void an_error_answer_names_what_the_server_said() {
        ServerReflection.Caller missing = (path, body) -> GrpcFraming.frame(message(7, message(2, bytes("no services"))));

        assertThatThrownBy(() -> ServerReflection.fetch(missing))
                .hasMessage("the server's reflection answered an error: no services");
    }

    @Test
    void requests_are_framed_reflection_requests() throws IOException {
        byte[] framed = ServerReflection.request(4, List.of("demo.Api", "x"));

        List<byte[]> requests = GrpcFraming.unframeAll(framed);
        assertThat(requests).hasSize(2);
        int[] field = new int[1];
        assertThat(stringField(requests.get(0), field)).isEqualTo("demo.Api");
        assertThat(field[0]).isEqualTo(4);
    }

    /** The one string field of a message; its number in {@code field[0]}. */
    private static String stringField(byte[] message, int[] field) {
        try {
            CodedInputStream in = CodedInputStream.newInstance(message);
            int tag = in.readTag();
            field[0] = tag >>> 3;
            return in.readString();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A message whose fields {@code number} hold each of {@code values}. */
    private static byte[] message(int number, byte[]... values) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            for (byte[] value : values) {
                out.writeByteArray(number, value);
            }
            out.flush();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }
}
