package io.loadsmith.examples.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.loadsmith.agent.AgentOptions;
import io.loadsmith.examples.kubernetes.Manifests.Pod;
import io.loadsmith.tester.cli.Main;
import io.loadsmith.tester.scenario.ScenarioParser;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * examples/kubernetes against what they run: the Kubernetes model (no unknown field), the images the
 * {@code images} profile builds, the CLI's own command spec, the agent's option parser, the scenario parser,
 * and each other (ports, volumes, shard counts).
 */
class ManifestsTest {

    /**
     * CLI options and subcommands the manifests use that other parts of the scale-out work add (issue 13).
     * Until they are in the command spec, an argument list using them is checked without them; once they are,
     * they are parsed like every other argument.
     */
    static final Set<String> EXPECTED_OPTIONS = Set.of("run --shard", "run --start-at");
    static final Set<String> EXPECTED_SUBCOMMANDS = Set.of("merge");

    static final Pattern VARIABLE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
    static final Pattern JAVA_AGENT = Pattern.compile("-javaagent:(\\S+?)=(\\S+)");
    static final String COMPLETION_INDEX = "metadata.annotations['batch.kubernetes.io/job-completion-index']";

    static final String CLI_IMAGE = System.getProperty("loadsmith.image.cli");
    static final String AGENT_IMAGE = System.getProperty("loadsmith.image.agent");
    static final String SCORING_IMAGE = System.getProperty("loadsmith.image.scoring");

    static Manifests manifests;

    @BeforeAll
    static void read() {
        manifests = Manifests.read(Path.of("").toAbsolutePath());
    }

    @Test
    void every_manifest_is_a_known_kind_with_only_fields_the_kubernetes_model_knows() {
        assertThat(manifests.all()).extracting(Manifests.Manifest::label).containsExactlyInAnyOrder(
                "merge-job.yaml: Job loadsmith-merge",
                "prometheus-scrape.yaml: ConfigMap loadsmith-prometheus",
                "results-pvc.yaml: PersistentVolumeClaim loadsmith-results",
                "run-config.yaml: ConfigMap loadsmith-run",
                "scenario.yaml: ConfigMap loadsmith-scenario",
                "scoring-service.yaml: Deployment scoring",
                "scoring-service.yaml: Service scoring",
                "scoring-service.yaml: Service scoring-agents",
                "shards-job.yaml: Job loadsmith-shards",
                "sidecar-job.yaml: Job loadsmith-sidecar");
        assertThat(manifests.unknownFields()).isEmpty();
    }

    @Test
    void an_unknown_field_is_reported_with_its_path() {
        Manifests bad = Manifests.read(Path.of("src/test/resources/unknown-field"));

        assertThat(bad.unknownFields()).containsExactly(
                "bad.yaml: Job typo: spec.template.spec.containers[0].imagePullPolicyy");
    }

    @Test
    void every_image_is_one_the_images_profile_builds_and_is_never_pulled_when_loaded() {
        List<Container> containers = manifests.pods().stream().flatMap(Pod::allContainers).toList();

        assertThat(containers).extracting(Container::getImage).containsOnly(CLI_IMAGE, AGENT_IMAGE, SCORING_IMAGE)
                .contains(CLI_IMAGE, AGENT_IMAGE, SCORING_IMAGE);
        assertThat(containers).extracting(Container::getImagePullPolicy).containsOnly("IfNotPresent");
    }

    @Test
    void every_tester_argument_list_parses_with_the_cli_command_spec() {
        List<Container> testers = testers();

        assertThat(testers).hasSize(3);
        for (Container tester : testers) {
            List<String> args = substitute(tester, tester.getArgs());
            assertThatCode(() -> checkWithCli(args)).as(tester.getName() + " " + args).doesNotThrowAnyException();
        }
    }

    @Test
    void an_argument_the_cli_does_not_know_fails_the_check() {
        assertThatCode(() -> checkWithCli(List.of("run", "s.yaml", "--colour", "red")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("--colour");
        assertThatCode(() -> checkWithCli(List.of("rnu", "s.yaml"))).isInstanceOf(AssertionError.class);
    }

    @Test
    void the_shards_job_runs_one_shard_per_index_from_one_fixed_instant_and_the_merge_reads_every_shard() {
        Job shards = manifests.named(Job.class, "loadsmith-shards");
        int n = shards.getSpec().getCompletions();
        Container tester = shards.getSpec().getTemplate().getSpec().getContainers().get(0);
        List<String> args = tester.getArgs();

        assertThat(shards.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(shards.getSpec().getParallelism()).isEqualTo(n);
        assertThat(valueAfter(args, "--shard")).isEqualTo("$(JOB_COMPLETION_INDEX)/" + n);
        assertThat(env(tester, "JOB_COMPLETION_INDEX").getValueFrom().getFieldRef().getFieldPath()).isEqualTo(COMPLETION_INDEX);
        assertThat(valueAfter(args, "--start-at")).isEqualTo("$(START_AT)");
        assertThat(Instant.parse(substitute(tester, List.of("$(START_AT)")).get(0))).isNotNull();
        assertThat(valueAfter(args, "--out")).isEqualTo("/results/shard-$(JOB_COMPLETION_INDEX)");

        Container merge = manifests.named(Job.class, "loadsmith-merge").getSpec().getTemplate().getSpec().getContainers().get(0);
        List<String> expected = new ArrayList<>(List.of("merge"));
        IntStream.range(0, n).forEach(i -> expected.add("/results/shard-" + i));
        expected.addAll(List.of("--out", "/results/merged"));
        assertThat(merge.getArgs()).isEqualTo(expected);
        assertThat(mountOf(merge, "results").getMountPath()).isEqualTo(mountOf(tester, "results").getMountPath());
        assertThat(volume(pod("Job loadsmith-merge"), "results").getPersistentVolumeClaim().getClaimName())
                .isEqualTo(volume(pod("Job loadsmith-shards"), "results").getPersistentVolumeClaim().getClaimName());
    }

    @Test
    void every_java_tool_options_loads_the_jar_an_init_container_copies_with_options_the_agent_accepts() {
        List<Pod> withAgent = manifests.pods().stream()
                .filter(p -> p.allContainers().anyMatch(c -> javaToolOptions(c) != null)).toList();

        assertThat(withAgent).extracting(Pod::label).containsExactlyInAnyOrder("Deployment scoring", "Job loadsmith-sidecar");
        for (Pod pod : withAgent) {
            Container service = pod.allContainers().filter(c -> javaToolOptions(c) != null).findFirst().orElseThrow();
            Matcher agent = JAVA_AGENT.matcher(javaToolOptions(service));
            assertThat(agent.find()).as(pod.label()).isTrue();
            AgentOptions options = AgentOptions.parse(agent.group(2));
            Container copy = pod.spec().getInitContainers().get(0);

            assertThat(copy.getImage()).isEqualTo(AGENT_IMAGE);
            assertThat(copy.getCommand()).containsExactly("cp", "/loadsmith/loadsmith-agent.jar", agent.group(1));
            assertThat(volumeOf(pod, copy, agent.group(1))).as(pod.label()).isEqualTo(volumeOf(pod, service, agent.group(1)));
            assertThat(volume(pod, volumeOf(pod, service, agent.group(1))).getEmptyDir()).isNotNull();
            if (!options.adminHost().equals("127.0.0.1")) {
                assertThat(port(service, "admin")).isEqualTo(options.adminPort());
                assertThat(volume(pod, volumeOf(pod, service, options.tokenFile().toString())).getSecret().getSecretName())
                        .isEqualTo("loadsmith-agent-token");
            }
        }
    }

    @Test
    void the_services_the_scenario_calls_lead_to_the_deployments_ports_and_agents() {
        Pod scoring = pod("Deployment scoring");
        Container service = scoring.spec().getContainers().get(0);
        AgentOptions options = agentOptions(service);
        JsonNode scenario = scenario("scenario.yaml");
        URI target = URI.create(scenario.path("target").path("url").asText());
        URI admin = URI.create(scenario.path("stalls").path("admin").asText());
        Service load = manifests.named(Service.class, target.getHost());
        Service agents = manifests.named(Service.class, admin.getHost());

        assertThat(agents.getSpec().getClusterIP()).isEqualTo("None");
        for (Service s : List.of(load, agents)) {
            assertThat(scoring.labels()).containsAllEntriesOf(s.getSpec().getSelector());
            for (ServicePort p : s.getSpec().getPorts()) {
                assertThat(port(service, p.getTargetPort().getStrVal())).as(s.getMetadata().getName() + " " + p.getName())
                        .isEqualTo(p.getPort());
            }
        }
        assertThat(servicePort(load, "http")).isEqualTo(target.getPort()).isEqualTo(port(service, "http"));
        assertThat(servicePort(agents, "admin")).isEqualTo(admin.getPort()).isEqualTo(options.adminPort());
        assertThat(valueAfter(service.getArgs(), "--port")).isEqualTo(String.valueOf(port(service, "http")));

        Container tester = manifests.named(Job.class, "loadsmith-shards").getSpec().getTemplate().getSpec().getContainers().get(0);
        String tokenFile = scenario.path("stalls").path("token_file").asText();
        assertThat(volume(pod("Job loadsmith-shards"), volumeOf(pod("Job loadsmith-shards"), tester, tokenFile)).getSecret()
                .getSecretName()).isEqualTo("loadsmith-agent-token");
        assertThat(Path.of(tokenFile)).isEqualTo(options.tokenFile());
    }

    @Test
    void the_sidecar_variant_runs_the_service_as_a_native_sidecar_and_the_tester_calls_it_over_loopback() {
        Pod pod = pod("Job loadsmith-sidecar");
        Container sidecar = pod.spec().getInitContainers().stream().filter(c -> SCORING_IMAGE.equals(c.getImage()))
                .findFirst().orElseThrow();
        Container tester = pod.spec().getContainers().get(0);
        JsonNode scenario = scenario(Path.of(tester.getArgs().get(1)).getFileName().toString());
        URI target = URI.create(scenario.path("target").path("url").asText());
        URI admin = URI.create(scenario.path("stalls").path("admin").asText());

        assertThat(sidecar.getRestartPolicy()).isEqualTo("Always");
        assertThat(sidecar.getStartupProbe().getHttpGet().getPath()).isEqualTo("/health");
        assertThat(pod.spec().getContainers()).extracting(Container::getImage).containsExactly(CLI_IMAGE);
        assertThat(target.getHost()).isEqualTo("127.0.0.1");
        assertThat(target.getPort()).isEqualTo(port(sidecar, "http"));
        assertThat(admin.getHost()).isEqualTo(agentOptions(sidecar).adminHost());
        assertThat(admin.getPort()).isEqualTo(agentOptions(sidecar).adminPort());
    }

    @Test
    void prometheus_finds_each_shards_metrics_and_the_agents_on_the_ports_they_serve_with_the_agents_token() {
        Job shards = manifests.named(Job.class, "loadsmith-shards");
        Container tester = shards.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, String> testerAnnotations = shards.getSpec().getTemplate().getMetadata().getAnnotations();
        Deployment scoring = manifests.named(Deployment.class, "scoring");
        Container service = scoring.getSpec().getTemplate().getSpec().getContainers().get(0);
        String config = manifests.named(ConfigMap.class, "loadsmith-prometheus").getData().get("prometheus.yml");

        String metricsPort = valueAfter(tester.getArgs(), "--metrics").replaceFirst(".*:", "");
        assertThat(valueAfter(tester.getArgs(), "--metrics")).startsWith("0.0.0.0:");
        assertThat(testerAnnotations).containsEntry("prometheus.io/scrape", "true")
                .containsEntry("prometheus.io/port", metricsPort).containsEntry("prometheus.io/path", "/metrics");
        assertThat(tester.getPorts()).anySatisfy(port -> assertThat(port.getContainerPort()).isEqualTo(Integer.parseInt(metricsPort)));
        String adminPort = scoring.getSpec().getTemplate().getMetadata().getAnnotations().get("loadsmith.io/agent-metrics-port");
        assertThat(service.getPorts()).anySatisfy(port -> {
            assertThat(port.getName()).isEqualTo("admin");
            assertThat(port.getContainerPort()).isEqualTo(Integer.parseInt(adminPort));
        });
        assertThat(config).contains("__meta_kubernetes_pod_annotation_prometheus_io_scrape",
                "__meta_kubernetes_pod_annotation_loadsmith_io_agent_metrics_port",
                "credentials_file: " + mountOf(service, "token").getMountPath() + "/token");
    }

    @Test
    void the_scenarios_in_the_config_map_parse_with_the_testers_parser() {
        ConfigMap scenarios = manifests.named(ConfigMap.class, "loadsmith-scenario");

        assertThat(scenarios.getData()).containsOnlyKeys("scenario.yaml", "sidecar.yaml");
        scenarios.getData().forEach((name, text) ->
                assertThatCode(() -> ScenarioParser.parse(text, name, Path.of("/scenario"), List.of()))
                        .as(name).doesNotThrowAnyException());
    }

    @Test
    void every_volume_mount_names_a_volume_of_its_pod_and_every_config_map_and_claim_is_defined() {
        for (Pod pod : manifests.pods()) {
            pod.allContainers().flatMap(c -> c.getVolumeMounts().stream()).forEach(m ->
                    assertThat(volume(pod, m.getName())).as(pod.label() + " mount " + m.getName()).isNotNull());
            for (Volume v : pod.spec().getVolumes()) {
                if (v.getConfigMap() != null) {
                    assertThat(manifests.find(ConfigMap.class, v.getConfigMap().getName())).as(pod.label()).isPresent();
                }
                if (v.getPersistentVolumeClaim() != null) {
                    assertThat(manifests.find(io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class,
                            v.getPersistentVolumeClaim().getClaimName())).as(pod.label()).isPresent();
                }
                if (v.getSecret() != null) {
                    // made by kubectl create secret (docs/scale-out.md#on-kubernetes), never kept in a file
                    assertThat(v.getSecret().getSecretName()).isEqualTo("loadsmith-agent-token");
                }
            }
        }
    }

    /** Parses {@code args} with the CLI's command spec, leaving out only what {@link #EXPECTED_OPTIONS} names. */
    static void checkWithCli(List<String> args) {
        CommandLine cli = Main.commandLine();
        String subcommand = args.get(0);
        CommandLine sub = cli.getSubcommands().get(subcommand);
        if (sub == null) {
            assertThat(EXPECTED_SUBCOMMANDS).as("subcommand " + subcommand).contains(subcommand);
            return;
        }
        CommandSpec spec = sub.getCommandSpec();
        List<String> known = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (i > 0 && arg.startsWith("--") && spec.findOption(arg) == null) {
                assertThat(EXPECTED_OPTIONS).as("option " + arg + " of " + subcommand).contains(subcommand + " " + arg);
                i++;
                continue;
            }
            known.add(arg);
        }
        try {
            Main.commandLine().parseArgs(known.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new AssertionError(known + ": " + e.getMessage(), e);
        }
    }

    /** The containers that run the CLI. */
    static List<Container> testers() {
        return manifests.pods().stream().flatMap(Pod::allContainers).filter(c -> CLI_IMAGE.equals(c.getImage())).toList();
    }

    /** {@code args} with every {@code $(VAR)} replaced as the kubelet would (index 0 for a completion index). */
    static List<String> substitute(Container container, List<String> args) {
        List<String> out = new ArrayList<>();
        for (String arg : args) {
            Matcher m = VARIABLE.matcher(arg);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(sb, Matcher.quoteReplacement(resolve(env(container, m.group(1)))));
            }
            m.appendTail(sb);
            out.add(sb.toString());
        }
        return out;
    }

    static String resolve(EnvVar variable) {
        if (variable.getValue() != null) {
            return variable.getValue();
        }
        if (variable.getValueFrom().getFieldRef() != null) {
            assertThat(variable.getValueFrom().getFieldRef().getFieldPath()).isEqualTo(COMPLETION_INDEX);
            return "0";
        }
        var ref = variable.getValueFrom().getConfigMapKeyRef();
        String value = manifests.named(ConfigMap.class, ref.getName()).getData().get(ref.getKey());
        assertThat(value).as("ConfigMap " + ref.getName() + " key " + ref.getKey()).isNotNull();
        return value;
    }

    static EnvVar env(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + ": $(" + name + ") is not in env"));
    }

    static String javaToolOptions(Container container) {
        return container.getEnv().stream().filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS")).map(EnvVar::getValue)
                .findFirst().orElse(null);
    }

    static AgentOptions agentOptions(Container container) {
        Matcher agent = JAVA_AGENT.matcher(javaToolOptions(container));
        assertThat(agent.find()).isTrue();
        return AgentOptions.parse(agent.group(2));
    }

    static String valueAfter(List<String> args, String option) {
        int i = args.indexOf(option);
        assertThat(i).as(option + " in " + args).isNotNegative();
        return args.get(i + 1);
    }

    static int port(Container container, String name) {
        return container.getPorts().stream().filter(p -> name.equals(p.getName())).map(ContainerPort::getContainerPort)
                .findFirst().orElseThrow(() -> new AssertionError(container.getName() + ": no port named " + name));
    }

    static int servicePort(Service service, String name) {
        return service.getSpec().getPorts().stream().filter(p -> name.equals(p.getName())).map(ServicePort::getPort)
                .findFirst().orElseThrow(() -> new AssertionError(service.getMetadata().getName() + ": no port " + name));
    }

    static Pod pod(String label) {
        return manifests.pods().stream().filter(p -> p.label().equals(label)).findFirst().orElseThrow();
    }

    static Volume volume(Pod pod, String name) {
        return pod.spec().getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst().orElse(null);
    }

    static VolumeMount mountOf(Container container, String volume) {
        return container.getVolumeMounts().stream().filter(m -> m.getName().equals(volume)).findFirst().orElseThrow();
    }

    /** The volume a container mounts over {@code file}'s folder. */
    static String volumeOf(Pod pod, Container container, String file) {
        return container.getVolumeMounts().stream().filter(m -> Path.of(file).startsWith(Path.of(m.getMountPath())))
                .map(VolumeMount::getName).findFirst()
                .orElseThrow(() -> new AssertionError(pod.label() + " " + container.getName() + ": nothing mounted over " + file));
    }

    static JsonNode scenario(String key) {
        String text = manifests.named(ConfigMap.class, "loadsmith-scenario").getData().get(key);
        assertThat(text).as("loadsmith-scenario key " + key).isNotNull();
        try {
            return new YAMLMapper().readTree(text);
        } catch (java.io.IOException e) {
            throw new AssertionError(key + ": " + e.getMessage(), e);
        }
    }
}
