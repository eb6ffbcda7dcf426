package io.loadsmith.tester.grpc;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code scoring.Scorer/Score} of examples/scenarios/grpc/scoring.protoset for a grpc-java server of the tests
 * and benchmarks, on protobuf-java's dynamic messages (no generated code), as the tester itself reads it.
 *
 * @param file    scoring.proto
 * @param request ScoreRequest
 * @param reply   ScoreReply
 * @param score   the unary method, marshalled by grpc-protobuf
 */
public record ScorerProto(FileDescriptor file, Descriptor request, Descriptor reply,
                          MethodDescriptor<DynamicMessage, DynamicMessage> score) {

    /** Reads the descriptor set (scoring.proto alone, which imports nothing). */
    public static ScorerProto read(Path protoset) throws IOException, DescriptorValidationException {
        FileDescriptor file = FileDescriptor.buildFrom(
                FileDescriptorSet.parseFrom(Files.readAllBytes(protoset)).getFile(0), new FileDescriptor[0]);
        Descriptor request = file.findMessageTypeByName("ScoreRequest");
        Descriptor reply = file.findMessageTypeByName("ScoreReply");
        MethodDescriptor<DynamicMessage, DynamicMessage> score = MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName("scoring.Scorer/Score")
                .setRequestMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(request)))
                .setResponseMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(reply)))
                .build();
        return new ScorerProto(file, request, reply, score);
    }

    /** A ScoreReply of {@code customerId} with {@code score}. */
    public DynamicMessage replyOf(int customerId, String score) {
        return DynamicMessage.newBuilder(reply).setField(reply.findFieldByName("customer_id"), customerId)
                .setField(reply.findFieldByName("score"), score).build();
    }
}
