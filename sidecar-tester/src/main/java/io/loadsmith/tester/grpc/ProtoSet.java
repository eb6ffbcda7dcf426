package io.loadsmith.tester.grpc;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The services of a {@code FileDescriptorSet}, as {@code protoc --include_imports --descriptor_set_out=FILE}
 * writes it: every file built with protobuf-java's {@link FileDescriptor#buildFrom} after the files it
 * imports, so that the methods' messages can be read and written as dynamic messages, without generated
 * code.
 *
 * <pre>{@code
 * ProtoSet set = ProtoSet.read(Path.of("scoring.protoset"));
 * GrpcMethod score = set.method("scoring.Scorer/Score").orElseThrow();
 * }</pre>
 */
public final class ProtoSet {

    private final Map<String, GrpcMethod> methods;

    private ProtoSet(Map<String, GrpcMethod> methods) {
        this.methods = methods;
    }

    /**
     * Reads a descriptor set file.
     *
     * @throws IOException   when the file cannot be read
     * @throws GrpcException when it is not a FileDescriptorSet, or one that does not hold the files its files
     *                       import (made without {@code --include_imports})
     */
    public static ProtoSet read(Path file) throws IOException {
        return parse(Files.readAllBytes(file));
    }

    /** {@link #read} of a descriptor set's bytes. */
    public static ProtoSet parse(byte[] bytes) {
        FileDescriptorSet set;
        try {
            set = FileDescriptorSet.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new GrpcException("is not a FileDescriptorSet (protoc --include_imports --descriptor_set_out=FILE): "
                    + e.getMessage(), e);
        }
        if (set.getFileCount() == 0) {
            throw new GrpcException("is not a FileDescriptorSet (protoc --include_imports --descriptor_set_out=FILE): "
                    + "it holds no .proto file");
        }
        Map<String, FileDescriptorProto> protos = new LinkedHashMap<>();
        for (FileDescriptorProto proto : set.getFileList()) {
            protos.put(proto.getName(), proto);
        }
        Map<String, FileDescriptor> built = new HashMap<>();
        Map<String, GrpcMethod> methods = new LinkedHashMap<>();
        for (String name : protos.keySet()) {
            for (ServiceDescriptor service : build(name, protos, built, new ArrayList<>()).getServices()) {
                for (MethodDescriptor method : service.getMethods()) {
                    GrpcMethod m = new GrpcMethod(method);
                    methods.put(m.name(), m);
                }
            }
        }
        return new ProtoSet(methods);
    }

    /** The file {@code name}, built after its imports ({@code path}: the files being built, to name a cycle). */
    private static FileDescriptor build(String name, Map<String, FileDescriptorProto> protos,
                                        Map<String, FileDescriptor> built, List<String> path) {
        FileDescriptor done = built.get(name);
        if (done != null) {
            return done;
        }
        FileDescriptorProto proto = protos.get(name);
        if (proto == null) {
            throw new GrpcException("lacks " + name + ", which " + path.get(path.size() - 1)
                    + " imports (make it with protoc --include_imports)");
        }
        if (path.contains(name)) {
            throw new GrpcException("has an import cycle through " + name);
        }
        path.add(name);
        FileDescriptor[] dependencies = new FileDescriptor[proto.getDependencyCount()];
        for (int i = 0; i < dependencies.length; i++) {
            dependencies[i] = build(proto.getDependency(i), protos, built, path);
        }
        path.remove(path.size() - 1);
        try {
            FileDescriptor file = FileDescriptor.buildFrom(proto, dependencies);
            built.put(name, file);
            return file;
        } catch (DescriptorValidationException e) {
            throw new GrpcException("has an invalid " + name + ": " + e.getMessage(), e);
        }
    }

    /** The method {@code pkg.Service/Method}, or empty when no service of the set has it. */
    public Optional<GrpcMethod> method(String name) {
        return Optional.ofNullable(methods.get(name.strip()));
    }

    /** Every method's name, {@code pkg.Service/Method}, in the set's order. */
    public List<String> methodNames() {
        return List.copyOf(methods.keySet());
    }
}
