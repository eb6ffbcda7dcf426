package io.loadsmith.tester.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProtoSetTest {

    /** The reference service's descriptor set, made by protoc 3.21 from scoring.proto. */
    static final Path SCORING = Path.of("../examples/scenarios/grpc/scoring.protoset");

    static GrpcMethod score() throws IOException {
        return ProtoSet.read(SCORING).method("scoring.Scorer/Score").orElseThrow();
    }

    @Test
    void finds_the_methods_of_a_protoc_descriptor_set() throws IOException {
        ProtoSet set = ProtoSet.read(SCORING);

        assertThat(set.methodNames()).containsExactly("scoring.Scorer/Score");
        GrpcMethod score = set.method("scoring.Scorer/Score").orElseThrow();
        assertThat(score.path()).isEqualTo("/scoring.Scorer/Score");
        assertThat(score.inputName()).isEqualTo("scoring.ScoreRequest");
        assertThat(score.outputName()).isEqualTo("scoring.ScoreReply");
        assertThat(score.streaming()).isFalse();
        assertThat(set.method("scoring.Scorer/Scores")).isEmpty();
    }

    @Test
    void a_file_is_built_after_the_files_it_imports_whatever_their_order() {
        FileDescriptorSet set = FileDescriptorSet.newBuilder()
                .addFile(api("api.proto", "types.proto"))
                .addFile(types())
                .build();

        ProtoSet protos = ProtoSet.parse(set.toByteArray());

        assertThat(protos.method("demo.Api/Get").orElseThrow().inputName()).isEqualTo("demo.Key");
    }

    @Test
    void a_set_without_the_files_it_imports_names_the_missing_file() {
        byte[] bytes = FileDescriptorSet.newBuilder().addFile(api("api.proto", "types.proto")).build().toByteArray();

        assertThatThrownBy(() -> ProtoSet.parse(bytes)).isInstanceOf(GrpcException.class)
                .hasMessage("lacks types.proto, which api.proto imports (make it with protoc --include_imports)");
    }

    @Test
    void a_file_that_is_not_a_descriptor_set_is_refused() {
        byte[] text = "syntax = \"proto3\";\npackage scoring;\n".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> ProtoSet.parse(text)).isInstanceOf(GrpcException.class)
                .hasMessageStartingWith("is not a FileDescriptorSet (protoc --include_imports --descriptor_set_out=FILE)");
        assertThatThrownBy(() -> ProtoSet.parse(new byte[0])).hasMessageContaining("it holds no .proto file");
    }

    private static FileDescriptorProto types() {
        return FileDescriptorProto.newBuilder().setName("types.proto").setPackage("demo").setSyntax("proto3")
                .addMessageType(DescriptorProto.newBuilder().setName("Key").addField(FieldDescriptorProto.newBuilder()
                        .setName("id").setNumber(1).setType(FieldDescriptorProto.Type.TYPE_INT64)))
                .build();
    }

    private static FileDescriptorProto api(String name, String imported) {
        return FileDescriptorProto.newBuilder().setName(name).setPackage("demo").setSyntax("proto3")
                .addDependency(imported)
                .addService(ServiceDescriptorProto.newBuilder().setName("Api").addMethod(MethodDescriptorProto
                        .newBuilder().setName("Get").setInputType(".demo.Key").setOutputType(".demo.Key")))
                .build();
    }
}
