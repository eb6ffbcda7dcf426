package io.loadsmith.examples.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The manifests of examples/kubernetes, read into fabric8's Kubernetes model: every YAML document of every
 * {@code *.yaml} file of a folder, each as the model class of its kind. Fields the model does not know land in
 * the model's {@code additionalProperties}; {@link #unknownFields} lists them by path.
 */
final class Manifests {

    /** The kinds the examples use, each with its model class: any other kind is refused. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "apps/v1 Deployment", Deployment.class,
            "v1 Service", Service.class,
            "v1 ConfigMap", ConfigMap.class,
            "v1 PersistentVolumeClaim", PersistentVolumeClaim.class,
            "batch/v1 Job", Job.class);

    /** One document: the file it came from and the model object. */
    record Manifest(String file, HasMetadata resource) {
        String label() {
            return file + ": " + resource.getKind() + " " + resource.getMetadata().getName();
        }
    }

    /** A pod template: who holds it, and its spec. */
    record Pod(String label, Map<String, String> labels, PodSpec spec) {
        Stream<Container> allContainers() {
            return Stream.concat(spec.getInitContainers().stream(), spec.getContainers().stream());
        }
    }

    private final List<Manifest> manifests;

    private Manifests(List<Manifest> manifests) {
        this.manifests = manifests;
    }

    static Manifests read(Path folder) {
        ObjectMapper yaml = new YAMLMapper();
        List<Manifest> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList()) {
                try (MappingIterator<JsonNode> docs = yaml.readerFor(JsonNode.class).readValues(file.toFile())) {
                    while (docs.hasNext()) {
                        JsonNode doc = docs.next();
                        if (doc == null || doc.isNull() || doc.isEmpty()) {
                            continue;
                        }
                        all.add(new Manifest(file.getFileName().toString(), toModel(yaml, file, doc)));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Manifests(List.copyOf(all));
    }

    private static HasMetadata toModel(ObjectMapper yaml, Path file, JsonNode doc) throws IOException {
        String kind = doc.path("apiVersion").asText() + " " + doc.path("kind").asText();
        Class<? extends HasMetadata> type = KINDS.get(kind);
        if (type == null) {
            throw new IllegalArgumentException(file.getFileName() + ": kind \"" + kind + "\" is none of " + KINDS.keySet());
        }
        return yaml.treeToValue(doc, type);
    }

    List<Manifest> all() {
        return manifests;
    }

    <T extends HasMetadata> List<T> of(Class<T> type) {
        return manifests.stream().map(Manifest::resource).filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T named(Class<T> type, String name) {
        return of(type).stream().filter(r -> r.getMetadata().getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " named " + name));
    }

    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return of(type).stream().filter(r -> r.getMetadata().getName().equals(name)).findFirst();
    }

    /** Every pod template: of each Deployment and each Job. */
    List<Pod> pods() {
        List<Pod> pods = new ArrayList<>();
        for (Deployment d : of(Deployment.class)) {
            pods.add(new Pod("Deployment " + d.getMetadata().getName(), d.getSpec().getTemplate().getMetadata().getLabels(),
                    d.getSpec().getTemplate().getSpec()));
        }
        for (Job j : of(Job.class)) {
            pods.add(new Pod("Job " + j.getMetadata().getName(), j.getSpec().getTemplate().getMetadata().getLabels(),
                    j.getSpec().getTemplate().getSpec()));
        }
        return pods;
    }

    /** Every field, at any depth, that the model did not know, as {@code file: Kind name: path.field}. */
    List<String> unknownFields() {
        List<String> unknown = new ArrayList<>();
        for (Manifest m : manifests) {
            collectUnknown(m.resource(), m.label() + ": ", unknown);
        }
        return unknown;
    }

    private static void collectUnknown(Object value, String path, List<String> unknown) {
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collectUnknown(list.get(i), path + "[" + i + "]", unknown);
            }
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> collectUnknown(v, path + "[" + k + "]", unknown));
        } else if (value != null && value.getClass().getPackageName().startsWith("io.fabric8.kubernetes.api.model")) {
            for (Method getter : value.getClass().getMethods()) {
                if (!isGetter(getter)) {
                    continue;
                }
                Object field = invoke(getter, value);
                if (getter.getName().equals("getAdditionalProperties")) {
                    ((Map<?, ?>) field).keySet().forEach(k -> unknown.add(path + (path.endsWith(": ") ? "" : ".") + k));
                } else {
                    String name = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
                    collectUnknown(field, path + (path.endsWith(": ") ? "" : ".") + name, unknown);
                }
            }
        }
    }

    private static boolean isGetter(Method m) {
        return m.getName().startsWith("get") && m.getName().length() > 3 && m.getParameterCount() == 0
                && !Modifier.isStatic(m.getModifiers()) && m.getDeclaringClass() != Object.class;
    }

    private static Object invoke(Method getter, Object target) {
        try {
            return getter.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(getter + ": " + e, e);
        }
    }
}
