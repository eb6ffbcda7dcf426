package io.loadsmith.examples.scoring;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code scoring.Scorer/Score} without generated code: its messages are {@link DynamicMessage}s of the descriptor
 * set {@value #PROTOSET} in the jar, which the build copies from {@code examples/scenarios/grpc/} (the file the
 * scenarios' {@code target.grpc.descriptor} names, compiled from {@code scoring.proto} there). Servers and tests
 * share the one {@link #SCORE} method descriptor.
 */
final class ScorerProtocol {

    static final String PROTOSET = "scoring.protoset";
    static final String SERVICE = "scoring.Scorer";

    private static final Descriptors.MethodDescriptor SCORE_SCHEMA = loadScore();
    static final Descriptors.Descriptor REQUEST = SCORE_SCHEMA.getInputType();
    static final Descriptors.Descriptor REPLY = SCORE_SCHEMA.getOutputType();
    static final Descriptors.FieldDescriptor REQUEST_CUSTOMER_ID = REQUEST.findFieldByName("customer_id");
    static final Descriptors.FieldDescriptor REPLY_CUSTOMER_ID = REPLY.findFieldByName("customer_id");
    static final Descriptors.FieldDescriptor REPLY_SCORE = REPLY.findFieldByName("score");

    /** The unary call, marshalled by protobuf-java's parser of each dynamic type. */
    static final MethodDescriptor<DynamicMessage, DynamicMessage> SCORE =
            MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
                    .setType(MethodDescriptor.MethodType.UNARY)
                    .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, SCORE_SCHEMA.getName()))
                    .setRequestMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(REQUEST)))
                    .setResponseMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(REPLY)))
                    .build();

    private ScorerProtocol() {
    }

    static DynamicMessage request(int customerId) {
        return DynamicMessage.newBuilder(REQUEST).setField(REQUEST_CUSTOMER_ID, customerId).build();
    }

    static DynamicMessage reply(int customerId, String score) {
        return DynamicMessage.newBuilder(REPLY)
                .setField(REPLY_CUSTOMER_ID, customerId)
                .setField(REPLY_SCORE, score)
                .build();
    }

    /** {@code Score} of {@code scoring.Scorer} from the jar's descriptor set (one file, no imports). */
    private static Descriptors.MethodDescriptor loadScore() {
        try (InputStream in = ScorerProtocol.class.getResourceAsStream(PROTOSET)) {
            if (in == null) {
                throw new IllegalStateException(PROTOSET + " is not on the class path beside " + ScorerProtocol.class.getName());
            }
            FileDescriptor file = FileDescriptor.buildFrom(FileDescriptorSet.parseFrom(in).getFile(0), new FileDescriptor[0]);
            return file.findServiceByName("Scorer").findMethodByName("Score");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + PROTOSET, e);
        } catch (DescriptorValidationException e) {
            throw new IllegalStateException(PROTOSET + " is not a valid descriptor set", e);
        }
    }
}
