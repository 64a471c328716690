package io.tcpload.operator.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.tcpload.operator.OperatorSettings;
import io.tcpload.operator.TcpLoadMain;
import io.tcpload.operator.crd.KubernetesTypedFields;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.status.EventReason;
import io.tcpload.runner.cli.RunCommand;
import io.tcpload.runner.slo.Threshold;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The documents agree with the code: README.md, CONTRIBUTING.md and docs/*.md name every flag, CRD
 * field, profile key, example and environment variable there is, none that is not, and link only to
 * files and headings that exist. (The Helm chart's README is checked by {@code ChartReadmeTest}.)
 */
class DocsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOCS = ROOT.resolve("docs");

    /** The README's two commands; CI and users rely on them exactly as written. */
    private static final String RUN_COMMAND =
            "./tcpload run -f examples/quickstart.yaml --demo-target";

    private static final String TEST_COMMAND = "./mvnw -B verify";

    private static final Set<String> KUBERNETES_TYPES = KubernetesTypedFields.NAMES;

    /** Environment variables read by the code, as string literals in the main sources. */
    private static final Pattern VARIABLE_LITERAL =
            Pattern.compile("\"((?:TCPLOAD_[A-Z0-9_]+)|JOB_COMPLETION_INDEX)\"");

    private static final Pattern VARIABLE = Pattern.compile("\\bTCPLOAD_[A-Z0-9_]+\\b");

    // One option line of picocli's usage help: two spaces, then "-d, --duration=T", or six spaces,
    // then "--demo-target". Description lines are indented further and never match.
    private static final Pattern HELP_OPTION =
            Pattern.compile(
                    "(?m)^ {2}(?:(-[A-Za-z])(?:, (--[\\w-]+))?| {4}(--[\\w-]+))(?=[=\\s]|$)");

    @Test
    void theRunnerFlagsAreTheDocumentedOnes() {
        CommandLine runner = runnerCommandLine();
        assertSameFlags(
                "docs/runner.md, ## Flags",
                Markdown.tableFlags(Markdown.section(read(DOCS.resolve("runner.md")), "## Flags")),
                optionNames(runner.getCommandSpec()));
    }

    @Test
    void theServeFlagsAreTheDocumentedOnes() {
        CommandLine serve = runnerCommandLine().getSubcommands().get("serve");
        assertSameFlags(
                "docs/runner.md, ## The demo target",
                Markdown.tableFlags(
                        Markdown.section(read(DOCS.resolve("runner.md")), "## The demo target")),
                optionNames(serve.getCommandSpec()));
    }

    @Test
    void theRunFlagsAreTheDocumentedOnes() {
        Set<String> options = runOptions();
        assertThat(options).as("options read from 'tcpload run --help'").contains("--file");
        assertSameFlags(
                "docs/tcploadtest.md, ## Local mode: `tcpload run`",
                Markdown.tableFlags(
                        Markdown.section(
                                read(DOCS.resolve("tcploadtest.md")),
                                "## Local mode: `tcpload run`")),
                options);
    }

    /** Flags in prose too: a long flag written anywhere in these documents must exist. */
    @Test
    void everyLongFlagNamedInTheRunnerAndTestDocsExists() {
        Set<String> known = new TreeSet<>();
        CommandLine runner = runnerCommandLine();
        known.addAll(optionNames(runner.getCommandSpec()));
        known.addAll(optionNames(runner.getSubcommands().get("serve").getCommandSpec()));
        known.addAll(runOptions());
        known.addAll(launcherJvmFlags());
        for (String doc : List.of("runner.md", "profiles.md", "tcploadtest.md")) {
            assertThat(Markdown.longFlagsInCode(read(DOCS.resolve(doc))))
                    .as("flags named in docs/%s that the runner, serve and run lack", doc)
                    .isSubsetOf(known);
        }
    }

    @Test
    void theReadmeHoldsTheTwoCommandsAndCiRunsTheTestCommand() {
        String readme = read(ROOT.resolve("README.md"));
        assertThat(readme).contains("\n" + RUN_COMMAND + "\n").contains("\n" + TEST_COMMAND + "\n");
        assertThat(read(ROOT.resolve(".ci/run"))).contains("\n" + TEST_COMMAND + "\n");
    }

    @Test
    void everyExampleIsListed() throws IOException {
        String listed = read(ROOT.resolve("README.md")) + read(DOCS.resolve("tcploadtest.md"));
        Path examples = ROOT.resolve("examples");
        List<String> files;
        try (Stream<Path> walk = Files.walk(examples)) {
            files =
                    walk.filter(Files::isRegularFile)
                            .map(file -> examples.relativize(file).toString().replace('\\', '/'))
                            .sorted()
                            .toList();
        }
        assertThat(files).isNotEmpty();
        assertThat(files)
                .as("files in examples/ that neither README.md nor docs/tcploadtest.md names")
                .allSatisfy(file -> assertThat(listed).contains("`" + file + "`"));
    }

    @Test
    void everyRelativeLinkPointsToAFileAndHeadingThatExist() {
        List<String> broken = new ArrayList<>();
        for (Path doc : documents()) {
            for (String target : Markdown.linkTargets(read(doc))) {
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? "" : target.substring(hash + 1);
                Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(ROOT.relativize(doc) + ": " + target + " (no such file)");
                } else if (!anchor.isEmpty()
                        && resolved.toString().endsWith(".md")
                        && !Markdown.anchors(read(resolved)).contains(anchor)) {
                    broken.add(ROOT.relativize(doc) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void theEnvironmentVariablesAreTheCodesOwn() {
        String docs = documents().stream().map(DocsTest::read).collect(Collectors.joining("\n"));
        String code = mainSources();

        Set<String> named = matches(VARIABLE, docs, 0);
        assertThat(named).as("variables named in the docs").isNotEmpty();
        assertThat(named)
                .as("variables the docs name that no code, script or chart template has")
                .allSatisfy(variable -> assertThat(code).contains(variable));

        Set<String> read = matches(VARIABLE_LITERAL, javaSources(), 1);
        read.addAll(matches(VARIABLE, read(ROOT.resolve("tcpload")), 0));
        assertThat(read).as("variables read by the code").contains("TCPLOAD_BIND_HOST");
        assertThat(read)
                .as("variables read by the code that no document names")
                .allSatisfy(variable -> assertThat(docs).contains("`" + variable + "`"));
    }

    @Test
    void everyOperatorSettingIsInOperatingMd() {
        Set<String> asked = new TreeSet<>();
        OperatorSettings.fromEnvironment(
                name -> {
                    asked.add(name);
                    return null;
                });
        String operating = read(DOCS.resolve("operating.md"));
        assertThat(asked).isNotEmpty();
        assertThat(asked)
                .as("environment variables of OperatorSettings missing from docs/operating.md")
                .allSatisfy(variable -> assertThat(operating).contains("| `" + variable + "` |"));
    }

    @Test
    void everyCrdFieldIsDocumented() throws IOException {
        JSONSchemaProps root;
        try (InputStream in =
                Files.newInputStream(ROOT.resolve("crds/tcploadtests.tcpload.io-v1.yml"))) {
            root =
                    Serialization.unmarshal(in, CustomResourceDefinition.class)
                            .getSpec()
                            .getVersions()
                            .get(0)
                            .getSchema()
                            .getOpenAPIV3Schema();
        }
        List<String> fields = new ArrayList<>();
        collectFields("spec", root.getProperties().get("spec"), fields);
        collectFields("status", root.getProperties().get("status"), fields);
        String doc = read(DOCS.resolve("tcploadtest.md"));
        assertThat(fields).contains("spec.runners", "status.summary.latency.p99Ms");
        assertThat(fields)
                .as("CRD fields missing from docs/tcploadtest.md")
                .allSatisfy(field -> assertThat(doc).contains("`" + field + "`"));
    }

    @Test
    void thePhasesConditionsEventsAndThresholdMetricsAreDocumented() throws Exception {
        List<String> names = new ArrayList<>();
        Arrays.stream(Phase.values()).map(Phase::name).forEach(names::add);
        Arrays.stream(EventReason.values()).map(EventReason::name).forEach(names::add);
        Arrays.stream(Threshold.Metric.values()).map(Threshold.Metric::written).forEach(names::add);
        for (Field field : TcpLoadTestStatus.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                names.add((String) field.get(null));
            }
        }
        String doc = read(DOCS.resolve("tcploadtest.md"));
        assertThat(names)
                .as(
                        "phases, conditions, event reasons and threshold metrics missing from"
                                + " docs/tcploadtest.md")
                .allSatisfy(name -> assertThat(doc).contains("`" + name + "`"));
    }

    @Test
    void everyProfileKeyIsDocumented() {
        // The loader's key table is package-private; its source is the list of keys.
        String section =
                read(ROOT.resolve("runner/src/main/java/io/tcpload/runner/profile/Section.java"));
        int keysClass = section.indexOf("static final class Keys");
        assertThat(keysClass).as("Section.Keys in Section.java").isPositive();
        Set<String> keys =
                matches(
                        Pattern.compile("static final String [A-Z_]+ = \"([a-z_]+)\";"),
                        section.substring(keysClass),
                        1);
        assertThat(keys).contains("host", "rsp_code_success", "max_response_bytes");
        String doc = read(DOCS.resolve("profiles.md"));
        assertThat(keys)
                .as("profile keys of Section.Keys missing from docs/profiles.md")
                .allSatisfy(key -> assertThat(doc).contains("`" + key + "`"));
    }

    private static void assertSameFlags(String where, Set<String> documented, Set<String> real) {
        assertThat(documented).as("flags documented in %s", where).isNotEmpty();
        assertThat(difference(real, documented)).as("flags missing from %s", where).isEmpty();
        assertThat(difference(documented, real))
                .as("flags in %s that the command does not have", where)
                .isEmpty();
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> rest = new TreeSet<>(a);
        rest.removeAll(b);
        return rest;
    }

    private static CommandLine runnerCommandLine() {
        return new CommandLine(new RunCommand(nowhere(), nowhere()));
    }

    /**
     * The options of {@code tcpload run}, read from its usage help: the command's own classes are
     * not public, and the help is what users see.
     */
    private static Set<String> runOptions() {
        ByteArrayOutputStream help = new ByteArrayOutputStream();
        int status =
                TcpLoadMain.execute(
                        new PrintStream(help, true, StandardCharsets.UTF_8),
                        nowhere(),
                        "run",
                        "--help");
        assertThat(status).as("exit status of 'tcpload run --help'").isZero();
        Set<String> options = new LinkedHashSet<>();
        Matcher line = HELP_OPTION.matcher(help.toString(StandardCharsets.UTF_8));
        while (line.find()) {
            for (int group = 1; group <= 3; group++) {
                if (line.group(group) != null) {
                    options.add(line.group(group));
                }
            }
        }
        return options;
    }

    private static Set<String> optionNames(CommandSpec spec) {
        Set<String> names = new TreeSet<>();
        for (OptionSpec option : spec.options()) {
            names.addAll(Arrays.asList(option.names()));
        }
        return names;
    }

    private static void collectFields(String path, JSONSchemaProps schema, List<String> fields) {
        boolean array = schema.getItems() != null;
        JSONSchemaProps object = array ? schema.getItems().getSchema() : schema;
        if (object == null || object.getProperties() == null) {
            return;
        }
        object.getProperties()
                .forEach(
                        (name, property) -> {
                            String field = path + (array ? "[]." : ".") + name;
                            fields.add(field);
                            if (!KUBERNETES_TYPES.contains(name)) {
                                collectFields(field, property, fields);
                            }
                        });
    }

    /** README.md, CONTRIBUTING.md and every file of docs/. */
    private static List<Path> documents() {
        List<Path> documents = new ArrayList<>();
        documents.add(ROOT.resolve("README.md"));
        documents.add(ROOT.resolve("CONTRIBUTING.md"));
        try (Stream<Path> files = Files.list(DOCS)) {
            files.filter(file -> file.toString().endsWith(".md")).sorted().forEach(documents::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return documents;
    }

    /** The Java sources of both modules' main code. */
    private static String javaSources() {
        return concatenated(
                List.of(ROOT.resolve("runner/src/main"), ROOT.resolve("operator/src/main")));
    }

    /** The main code, the launcher script and the chart's templates. */
    private static String mainSources() {
        return javaSources()
                + read(ROOT.resolve("tcpload"))
                + concatenated(List.of(ROOT.resolve("helm/tcpload-operator/templates")));
    }

    private static String concatenated(List<Path> folders) {
        StringBuilder text = new StringBuilder();
        for (Path folder : folders) {
            try (Stream<Path> walk = Files.walk(folder)) {
                walk.filter(Files::isRegularFile)
                        .sorted()
                        .forEach(file -> text.append(read(file)).append('\n'));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return text.toString();
    }

    private static Set<String> matches(Pattern pattern, String text, int group) {
        Set<String> found = new TreeSet<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(group));
        }
        return found;
    }

    private static final Pattern LAUNCHER_FLAGS = Pattern.compile("(?m)^flags\\+?=\\((.*)\\)$");

    private static final Pattern LONG_JVM_FLAG = Pattern.compile("--[a-z][a-z-]*");

    /**
     * The long options the {@code tcpload} script gives the JVM (its lines {@code flags=(...)}).
     */
    private static Set<String> launcherJvmFlags() {
        Set<String> flags = new TreeSet<>();
        Matcher line = LAUNCHER_FLAGS.matcher(read(ROOT.resolve("tcpload")));
        while (line.find()) {
            Matcher flag = LONG_JVM_FLAG.matcher(line.group(1));
            while (flag.find()) {
                flags.add(flag.group());
            }
        }
        assertThat(flags).as("the launcher's long JVM options").isNotEmpty();
        return flags;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static PrintStream nowhere() {
        return new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    }
}
