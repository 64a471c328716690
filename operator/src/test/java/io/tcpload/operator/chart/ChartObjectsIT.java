package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What each switch renders, and that every rendered object is a well-formed, labelled object. */
class ChartObjectsIT {
    /** The kinds of the Prometheus Operator, which fabric8's built-in model does not know. */
    private static final Set<String> MONITOR_KINDS = Set.of("ServiceMonitor", "PodMonitor");

    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern LABEL_VALUE =
            Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");

    private static final String APP_VERSION = chartField("appVersion");
    private static final String CHART_VERSION = chartField("version");

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void everyObjectIsOfAKnownKind(Scenario scenario) {
        for (KubernetesResource object : HelmChart.render(scenario)) {
            HasMetadata resource = (HasMetadata) object;
            if (MONITOR_KINDS.contains(resource.getKind())) {
                assertThat(resource.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
            } else {
                assertThat(object)
                        .as("%s %s", resource.getKind(), resource.getMetadata().getName())
                        .isNotInstanceOf(GenericKubernetesResource.class);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void everyObjectCarriesTheStandardLabelsAndAValidName(Scenario scenario) {
        for (KubernetesResource object : HelmChart.render(scenario)) {
            HasMetadata resource = (HasMetadata) object;
            String what = resource.getKind() + " " + resource.getMetadata().getName();
            assertThat(resource.getMetadata().getName())
                    .as(what)
                    .matches(DNS_SUBDOMAIN)
                    .hasSizeLessThanOrEqualTo(63);
            Map<String, String> labels = resource.getMetadata().getLabels();
            if (resource instanceof Deployment deployment) {
                // The operator's pods carry them too, so their metrics and events can be found.
                assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                        .as("pod template")
                        .containsAllEntriesOf(labels);
            }
            assertThat(labels)
                    .as(what)
                    .containsEntry("app.kubernetes.io/name", "tcpload-operator")
                    .containsEntry("app.kubernetes.io/instance", HelmChart.RELEASE)
                    .containsEntry("app.kubernetes.io/version", APP_VERSION)
                    .containsEntry("app.kubernetes.io/managed-by", "Helm")
                    .containsEntry("helm.sh/chart", "tcpload-operator-" + CHART_VERSION);
            assertThat(labels.values())
                    .as(what)
                    .allSatisfy(v -> assertThat(v).matches(LABEL_VALUE));
            boolean clusterScoped =
                    Set.of("ClusterRole", "ClusterRoleBinding").contains(resource.getKind());
            if (clusterScoped) {
                assertThat(resource.getMetadata().getNamespace()).as(what).isNull();
            } else {
                assertThat(resource.getMetadata().getNamespace()).as(what).isNotBlank();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void theSwitchesDecideWhichObjectsExist(Scenario scenario) {
        List<KubernetesResource> objects = HelmChart.render(scenario);
        Map<String, Long> kinds =
                objects.stream()
                        .map(o -> ((HasMetadata) o).getKind())
                        .collect(Collectors.groupingBy(k -> k, Collectors.counting()));

        assertThat(kinds).containsEntry("Deployment", 1L).containsEntry("Service", 1L);
        assertThat(kinds.get("ServiceAccount")).isEqualTo(scenario.rbac() ? 1L : null);
        assertThat(kinds.get("ServiceMonitor")).isEqualTo(scenario.monitors() ? 1L : null);
        assertThat(kinds.get("PodMonitor")).isEqualTo(scenario.monitors() ? 1L : null);
        assertThat(kinds.get("ConfigMap")).isEqualTo(scenario.dashboards() ? 1L : null);
    }

    @Test
    void theServiceExposesTheMetricsPortOfTheOperatorPods() {
        List<KubernetesResource> objects = HelmChart.render(Scenario.DEFAULTS);
        Service service = HelmChart.ofType(objects, Service.class).get(0);
        Deployment deployment = HelmChart.ofType(objects, Deployment.class).get(0);

        assertThat(service.getSpec().getSelector())
                .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(service.getSpec().getSelector());
        assertThat(service.getSpec().getPorts())
                .singleElement()
                .satisfies(
                        port -> {
                            assertThat(port.getName()).isEqualTo("http");
                            assertThat(port.getPort()).isEqualTo(8080);
                            assertThat(port.getTargetPort().getStrVal()).isEqualTo("http");
                        });
    }

    @Test
    void scrapeAnnotationsAreOnByDefaultAndCanBeTurnedOff() {
        Map<String, String> expected =
                Map.of(
                        "prometheus.io/scrape", "true",
                        "prometheus.io/port", "8080",
                        "prometheus.io/path", "/metrics");
        List<KubernetesResource> on = HelmChart.render(Scenario.DEFAULTS);
        assertThat(HelmChart.ofType(on, Service.class).get(0).getMetadata().getAnnotations())
                .containsAllEntriesOf(expected);
        assertThat(podAnnotations(on)).containsAllEntriesOf(expected);

        List<KubernetesResource> off = HelmChart.render(Scenario.SCRAPE_ANNOTATIONS_OFF);
        assertThat(HelmChart.ofType(off, Service.class).get(0).getMetadata().getAnnotations())
                .isNullOrEmpty();
        assertThat(podAnnotations(off)).isNullOrEmpty();
    }

    @Test
    void theServiceMonitorScrapesTheOperatorService() {
        List<KubernetesResource> objects = HelmChart.render(Scenario.MONITORS_ON);
        Service service = HelmChart.ofType(objects, Service.class).get(0);
        GenericKubernetesResource monitor = monitor(objects, "ServiceMonitor");

        assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "prometheus");
        assertThat(monitor.<Map<String, String>>get("spec", "selector", "matchLabels"))
                .isEqualTo(service.getSpec().getSelector());
        assertThat(monitor.<List<String>>get("spec", "namespaceSelector", "matchNames"))
                .containsExactly(HelmChart.NAMESPACE);
        assertThat(monitor.<List<Map<String, Object>>>get("spec", "endpoints"))
                .singleElement()
                .satisfies(
                        endpoint ->
                                assertThat(endpoint)
                                        .containsEntry("port", "http")
                                        .containsEntry("path", "/metrics")
                                        .containsEntry("interval", "30s")
                                        .containsKey("scrapeTimeout"));
        assertThat(monitor.getAdditionalProperties().keySet()).containsOnly("spec");
    }

    @Test
    void thePodMonitorSelectsRunnerPodsInEveryNamespaceOrTheWatchedOnes() {
        GenericKubernetesResource clusterWide =
                monitor(HelmChart.render(Scenario.MONITORS_ON), "PodMonitor");
        assertThat(clusterWide.<Map<String, String>>get("spec", "selector", "matchLabels"))
                .containsExactly(Map.entry("app.kubernetes.io/name", "tcpload-runner"));
        assertThat(clusterWide.<Boolean>get("spec", "namespaceSelector", "any")).isTrue();
        assertThat(clusterWide.<List<Map<String, Object>>>get("spec", "podMetricsEndpoints"))
                .singleElement()
                .satisfies(
                        endpoint ->
                                assertThat(endpoint)
                                        .containsEntry("port", "metrics")
                                        .containsEntry("path", "/metrics")
                                        .containsEntry("interval", "5s")
                                        .containsEntry("honorLabels", true));

        GenericKubernetesResource namespaced =
                monitor(HelmChart.render(Scenario.MONITORS_ON_NAMESPACED), "PodMonitor");
        assertThat(namespaced.<Map<String, Object>>get("spec", "namespaceSelector"))
                .containsExactly(Map.entry("matchNames", List.of("team-a")));
    }

    @Test
    void theDashboardConfigMapHoldsTheDashboardForGrafanasSidecar() {
        ConfigMap dashboard =
                HelmChart.ofType(HelmChart.render(Scenario.DEFAULTS), ConfigMap.class).get(0);

        assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(dashboard.getMetadata().getNamespace()).isEqualTo(HelmChart.NAMESPACE);
        assertThat(dashboard.getData()).containsOnlyKeys("tcpload.json");
        assertThat(dashboard.getData().get("tcpload.json"))
                .isEqualTo(HelmChart.read(GrafanaDashboard.FILE).stripTrailing());
    }

    @Test
    void theDashboardCanGoToGrafanasNamespaceWithItsFolder() {
        ConfigMap dashboard =
                HelmChart.ofType(
                                HelmChart.render(
                                        HelmChart.values(
                                                "dashboards.namespace", "monitoring",
                                                "dashboards.label", "grafana_dashboard_tcp",
                                                "dashboards.annotations",
                                                        Map.of("grafana_folder", "Load tests"))),
                                ConfigMap.class)
                        .get(0);

        assertThat(dashboard.getMetadata().getNamespace()).isEqualTo("monitoring");
        assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard_tcp", "1");
        assertThat(dashboard.getMetadata().getAnnotations())
                .containsEntry("grafana_folder", "Load tests");
    }

    private static Map<String, String> podAnnotations(List<KubernetesResource> objects) {
        return HelmChart.ofType(objects, Deployment.class)
                .get(0)
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getAnnotations();
    }

    private static GenericKubernetesResource monitor(
            List<KubernetesResource> objects, String kind) {
        return objects.stream()
                .filter(GenericKubernetesResource.class::isInstance)
                .map(GenericKubernetesResource.class::cast)
                .filter(o -> o.getKind().equals(kind))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind));
    }

    private static String chartField(String field) {
        return String.valueOf(HelmChart.chartMetadata().get(field));
    }
}
