package io.tcpload.operator.local;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Secret;
import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.crd.ClientCertificate;
import io.tcpload.operator.crd.ConfigMapKey;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.KeySource;
import io.tcpload.operator.crd.ProfileSource;
import io.tcpload.operator.crd.SecretKey;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TlsSettings;
import io.tcpload.operator.validation.Failure;
import io.tcpload.operator.validation.KeyContents;
import io.tcpload.operator.validation.Sources;
import io.tcpload.runner.files.BoundedRead;
import io.tcpload.runner.files.UnreadableFileException;
import io.tcpload.runner.profile.Suggestions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * A YAML file of Kubernetes documents as users {@code kubectl apply} them: TcpLoadTests and the
 * ConfigMaps they take their profiles and data files from; other kinds (a Deployment, a Service)
 * are kept only by kind. Unknown fields in a TcpLoadTest are errors, so a misspelt field is
 * reported instead of silently ignored. Immutable once read.
 */
public final class TestFile {
    /** Larger files are refused before parsing: a test file is a few kilobytes. */
    static final long MAX_BYTES = 4L * 1024 * 1024;

    private static final String API_VERSION = TcpLoadTest.GROUP + "/" + TcpLoadTest.VERSION;

    /**
     * Read as the API server reads a custom resource: a fraction is not a whole number (Jackson
     * would cut {@code connections: 4.5} to 4, which the CRD's integer refuses), and a null field
     * takes its default (the API server drops the nulls of fields that are not nullable, and none
     * of ours is, before it applies defaults).
     */
    private static final YAMLMapper MAPPER =
            YAMLMapper.builder()
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                    .defaultSetterInfo(JsonSetter.Value.forValueNulls(Nulls.SKIP))
                    .build();

    private final Path path;
    private final List<TcpLoadTest> tests;
    private final Map<String, ConfigMap> configMaps;
    private final Map<String, Secret> secrets;
    private final List<String> otherKinds;

    private TestFile(
            Path path,
            List<TcpLoadTest> tests,
            Map<String, ConfigMap> configMaps,
            Map<String, Secret> secrets,
            List<String> otherKinds) {
        this.path = path;
        this.tests = List.copyOf(tests);
        this.configMaps = Map.copyOf(configMaps);
        this.secrets = Map.copyOf(secrets);
        this.otherKinds = List.copyOf(otherKinds);
    }

    /**
     * Reads every document of the file.
     *
     * @throws BadInputException when the file cannot be read, is not YAML, or a TcpLoadTest or
     *     ConfigMap in it does not match its type (the message names the document and field)
     */
    public static TestFile read(Path path) throws BadInputException {
        byte[] bytes;
        try {
            // At most the cap, whatever the file is: a device or a FIFO says no size.
            bytes = BoundedRead.readAtMost(path, MAX_BYTES, "test file");
        } catch (UnreadableFileException e) {
            throw new BadInputException(e.getMessage(), e);
        }
        try {
            String text =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes))
                            .toString();
            return parse(path, text);
        } catch (CharacterCodingException e) {
            throw new BadInputException(path + ": not UTF-8 text, which a YAML file must be", e);
        }
    }

    /** As {@link #read}, from text already read; {@code path} names it in messages. */
    public static TestFile parse(Path path, String text) throws BadInputException {
        List<TcpLoadTest> tests = new ArrayList<>();
        Map<String, ConfigMap> configMaps = new LinkedHashMap<>();
        Map<String, Secret> secrets = new LinkedHashMap<>();
        List<String> otherKinds = new ArrayList<>();
        int document = 0;
        String resolved;
        try {
            // As kubectl sends the file: aliases resolved, what they add bounded as the file is.
            resolved = YamlAliases.expand(text, MAX_BYTES);
        } catch (YAMLException e) {
            throw new BadInputException(path + ": not valid YAML: " + e.getMessage(), e);
        } catch (YamlAliases.AliasException e) {
            throw new BadInputException(path + ": " + e.getMessage(), e);
        }
        try (MappingIterator<JsonNode> documents =
                MAPPER.readerFor(JsonNode.class).readValues(resolved)) {
            while (documents.hasNextValue()) {
                JsonNode node = YamlAliases.merge(documents.nextValue());
                document++;
                if (node == null || node.isNull() || node.isMissingNode()) {
                    continue; // an empty document, such as a comment before the first ---
                }
                String where = path + " (document " + document + ")";
                if (!node.isObject()) {
                    throw new BadInputException(where + ": not a Kubernetes object");
                }
                String kind = node.path("kind").asText("");
                switch (kind) {
                    case "TcpLoadTest" -> {
                        String apiVersion = node.path("apiVersion").asText("");
                        if (!apiVersion.equals(API_VERSION)) {
                            throw new BadInputException(
                                    where
                                            + ": apiVersion: '"
                                            + apiVersion
                                            + "' is not "
                                            + API_VERSION);
                        }
                        tests.add(convert(node, TcpLoadTest.class, where));
                    }
                    case "ConfigMap" -> {
                        ConfigMap configMap = convert(node, ConfigMap.class, where);
                        String name =
                                configMap.getMetadata() == null
                                        ? null
                                        : configMap.getMetadata().getName();
                        if (name == null || name.isBlank()) {
                            throw new BadInputException(where + ": metadata.name: is missing");
                        }
                        configMaps.put(name, configMap);
                    }
                    case "Secret" -> {
                        Secret secret = convert(node, Secret.class, where);
                        String name =
                                secret.getMetadata() == null
                                        ? null
                                        : secret.getMetadata().getName();
                        if (name == null || name.isBlank()) {
                            throw new BadInputException(where + ": metadata.name: is missing");
                        }
                        secrets.put(name, secret);
                    }
                    case "" -> throw new BadInputException(where + ": kind: is missing");
                    default -> otherKinds.add(kind);
                }
            }
        } catch (JsonProcessingException e) {
            throw new BadInputException(path + ": not valid YAML: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new BadInputException(path + ": cannot read: " + e.getMessage(), e);
        }
        return new TestFile(path, tests, configMaps, secrets, otherKinds);
    }

    private static <T> T convert(JsonNode node, Class<T> type, String where)
            throws BadInputException {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            throw new BadInputException(where + ": " + fieldPath(e) + ": " + unknownField(e), e);
        } catch (MismatchedInputException e) {
            throw new BadInputException(where + ": " + fieldPath(e) + ": " + mismatch(e), e);
        } catch (JsonMappingException e) {
            throw new BadInputException(
                    where + ": " + fieldPath(e) + ": " + e.getOriginalMessage(), e);
        } catch (JsonProcessingException e) {
            throw new BadInputException(where + ": " + e.getOriginalMessage(), e);
        }
    }

    /** As kubectl says of a field its schema lacks, with the field probably meant. */
    static String unknownField(UnrecognizedPropertyException e) {
        List<String> known =
                e.getKnownPropertyIds() == null
                        ? List.of()
                        : e.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
        return "unknown field"
                + Suggestions.nearest(e.getPropertyName(), known)
                        .map(near -> "; did you mean '" + near + "'?")
                        .orElse(
                                known.isEmpty()
                                        ? ""
                                        : "; the fields here are " + String.join(", ", known));
    }

    /** What the field takes, in words rather than Java types, and what it was given. */
    static String mismatch(MismatchedInputException e) {
        Class<?> target = e.getTargetType();
        String expected;
        if (target == null) {
            return e.getOriginalMessage();
        } else if (target == Integer.class
                || target == int.class
                || target == Long.class
                || target == long.class
                || target == Short.class
                || target == short.class) {
            expected = "a whole number";
        } else if (target == Boolean.class || target == boolean.class) {
            expected = "true or false";
        } else if (Number.class.isAssignableFrom(target) || target.isPrimitive()) {
            expected = "a number";
        } else if (target == String.class) {
            expected = "a string";
        } else if (Collection.class.isAssignableFrom(target) || target.isArray()) {
            expected = "a list";
        } else if (target.isEnum()) {
            expected =
                    "one of "
                            + Arrays.stream(target.getEnumConstants())
                                    .map(String::valueOf)
                                    .collect(Collectors.joining(", "));
        } else {
            expected = "an object (a map of fields)";
        }
        Object value = e instanceof InvalidFormatException invalid ? invalid.getValue() : null;
        return "must be " + expected + (value == null ? "" : ", not '" + value + "'");
    }

    /** {@code spec.files[0].name}, from the exception's path. */
    static String fieldPath(JsonMappingException e) {
        StringBuilder field = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                if (field.length() > 0) {
                    field.append('.');
                }
                field.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                field.append('[').append(reference.getIndex()).append(']');
            }
        }
        return field.length() == 0 ? "(top level)" : field.toString();
    }

    public Path path() {
        return path;
    }

    /** The TcpLoadTests, in file order. */
    public List<TcpLoadTest> tests() {
        return tests;
    }

    /** The ConfigMaps by name. */
    public Map<String, ConfigMap> configMaps() {
        return configMaps;
    }

    /** The Secrets by name. */
    public Map<String, Secret> secrets() {
        return secrets;
    }

    /** The kinds of the other documents, in file order. */
    public List<String> otherKinds() {
        return otherKinds;
    }

    /**
     * The file's one TcpLoadTest.
     *
     * @throws BadInputException when there is none or more than one
     */
    public TcpLoadTest singleTest() throws BadInputException {
        if (tests.size() != 1) {
            throw new BadInputException(
                    path
                            + ": holds "
                            + tests.size()
                            + " TcpLoadTests; a local run takes a file with exactly one");
        }
        return tests.get(0);
    }

    /**
     * The profile and data file texts of {@code spec}: inline ones from the spec, ConfigMap keys
     * from the ConfigMaps of this file (a local run has no cluster to read them from).
     *
     * @return the texts, or the field whose ConfigMap key is not in this file
     */
    public Resolution sources(TcpLoadTestSpec spec) {
        try {
            Optional<String> profile = Optional.ofNullable(spec.getProfile());
            ProfileSource from = spec.getProfileFrom();
            if (from != null && from.secret().isPresent()) {
                profile = Optional.of(lookUp(from.secret().get(), "spec.profileFrom.secretKeyRef"));
            } else if (from != null && from.configMap().isPresent()) {
                profile = Optional.of(lookUp(from.configMap().get(), "spec.profileFrom"));
            }
            Map<String, String> files = new LinkedHashMap<>();
            List<DataFile> dataFiles = spec.getFiles();
            for (int i = 0; i < dataFiles.size(); i++) {
                DataFile file = dataFiles.get(i);
                if (file.getName() == null) {
                    continue; // validation names this field
                }
                if (file.getContent() != null) {
                    files.put(file.getName(), file.getContent());
                } else if (file.getConfigMapKeyRef() != null) {
                    String field = "spec.files[" + i + "].configMapKeyRef";
                    files.put(file.getName(), lookUp(file.getConfigMapKeyRef(), field));
                } else if (file.getSecretKeyRef() != null) {
                    String field = "spec.files[" + i + "].secretKeyRef";
                    files.put(file.getName(), lookUp(file.getSecretKeyRef(), field));
                }
            }
            return new Resolution(
                    Optional.of(new Sources(profile, files, tlsFiles(spec.getTls()))),
                    Optional.empty());
        } catch (MissingKey e) {
            return new Resolution(Optional.empty(), Optional.of(e.failure));
        }
    }

    /**
     * The files of {@code spec.tls} as a runner pod would have them mounted, by their names there,
     * from the ConfigMaps and Secrets of this file.
     */
    private Map<String, String> tlsFiles(TlsSettings tls) throws MissingKey {
        Map<String, String> files = new LinkedHashMap<>();
        if (tls == null) {
            return files;
        }
        KeySource ca = tls.getCa();
        if (ca != null && ca.getConfigMapKeyRef() != null) {
            files.put(
                    RunnerInvocations.TLS_CA_FILE,
                    lookUp(ca.getConfigMapKeyRef(), "spec.tls.ca.configMapKeyRef"));
        } else if (ca != null && ca.getSecretKeyRef() != null) {
            files.put(
                    RunnerInvocations.TLS_CA_FILE,
                    lookUp(ca.getSecretKeyRef(), "spec.tls.ca.secretKeyRef"));
        }
        ClientCertificate client = tls.getClientCertificate();
        if (client != null) {
            String field = "spec.tls.clientCertificate.secretName";
            files.put(
                    RunnerInvocations.TLS_CERT_FILE,
                    lookUp(
                            new SecretKey(
                                    client.getSecretName(), ClientCertificate.CERTIFICATE_KEY),
                            field));
            files.put(
                    RunnerInvocations.TLS_KEY_FILE,
                    lookUp(
                            new SecretKey(client.getSecretName(), ClientCertificate.KEY_KEY),
                            field));
        }
        return files;
    }

    /**
     * The environment a runner pod of {@code spec} would have as far as a profile's ENV parameters
     * read it: {@code spec.runner.env}, each a literal value or a key of a ConfigMap or Secret of
     * this file. A variable whose source is not in the file is left unset, and the runner says so
     * if a parameter reads it; nothing of the shell's environment is taken, so that a test runs
     * here as it would in the cluster.
     */
    public Map<String, String> runnerEnvironment(TcpLoadTestSpec spec) {
        Map<String, String> variables = new LinkedHashMap<>();
        if (spec.getRunner() == null) {
            return variables;
        }
        for (EnvVar variable : spec.getRunner().getEnv()) {
            if (variable == null || variable.getName() == null) {
                continue;
            }
            String value = null;
            EnvVarSource from = variable.getValueFrom();
            if (from == null) {
                value = variable.getValue() == null ? "" : variable.getValue();
            } else if (from.getSecretKeyRef() != null) {
                value =
                        secretKey(
                                from.getSecretKeyRef().getName(), from.getSecretKeyRef().getKey());
            } else if (from.getConfigMapKeyRef() != null) {
                value =
                        configMapKey(
                                from.getConfigMapKeyRef().getName(),
                                from.getConfigMapKeyRef().getKey());
            }
            if (value != null) {
                variables.put(variable.getName(), value);
            }
        }
        return variables;
    }

    private String lookUp(ConfigMapKey key, String field) throws MissingKey {
        return lookUp("ConfigMap", key.getName(), key.getKey(), field, this::configMapKey);
    }

    private String lookUp(SecretKey key, String field) throws MissingKey {
        return lookUp("Secret", key.getName(), key.getKey(), field, this::secretKey);
    }

    private String configMapKey(String name, String key) {
        ConfigMap configMap = name == null || key == null ? null : configMaps.get(name);
        return configMap == null ? null : KeyContents.of(configMap, key);
    }

    private String secretKey(String name, String key) {
        Secret secret = name == null || key == null ? null : secrets.get(name);
        return secret == null ? null : KeyContents.of(secret, key);
    }

    /** The text of {@code kind} {@code name}'s {@code key} in this file, or why there is none. */
    private String lookUp(
            String kind,
            String name,
            String key,
            String field,
            BiFunction<String, String, String> contents)
            throws MissingKey {
        if (name == null || key == null) {
            throw new MissingKey(new Failure(field, "needs the " + kind + "'s name and key."));
        }
        String text = contents.apply(name, key);
        if (text == null) {
            throw new MissingKey(
                    new Failure(
                            field,
                            kind
                                    + " '"
                                    + name
                                    + "' with key '"
                                    + key
                                    + "' is not in "
                                    + path.getFileName()
                                    + "; a local run reads "
                                    + kind
                                    + "s from the test's own file."));
        }
        return text;
    }

    /**
     * What {@link #sources} found: exactly one of the resolved texts and the failure.
     *
     * @param sources the profile and data file texts
     * @param failure the field whose ConfigMap key is missing
     */
    public record Resolution(Optional<Sources> sources, Optional<Failure> failure) {}

    private static final class MissingKey extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Failure failure;

        MissingKey(Failure failure) {
            super(failure.toString(), null, false, false);
            this.failure = failure;
        }
    }
}
