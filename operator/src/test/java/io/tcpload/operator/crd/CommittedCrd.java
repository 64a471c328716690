package io.tcpload.operator.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The committed CRD ({@code crds/}, what users apply) doing what an API server does with it when a
 * TcpLoadTest is created or updated, with real engines: defaults, then the OpenAPI schema (by a
 * JSON-schema validator, patterns by RE2 as in the API server), then the CEL rules of {@code
 * x-kubernetes-validations} (by Google's CEL for Java). Read from the YAML, never from the Java
 * types, so that tests prove what is shipped.
 *
 * <p>The schema of a CRD is OpenAPI v3 with Kubernetes' extensions, not JSON Schema. The conversion
 * ({@link #toJsonSchema}) keeps every validation keyword the two share ({@code type}, {@code
 * properties}, {@code items}, {@code additionalProperties}, {@code required}, {@code enum}, {@code
 * pattern}, lengths, counts, bounds, {@code anyOf}/{@code allOf}/{@code oneOf}/{@code not}) and
 * maps the rest:
 *
 * <ul>
 *   <li>{@code nullable: true} becomes {@code "null"} among the types; a {@code null} for a field
 *       that is not nullable is dropped before defaulting, as the API server does;
 *   <li>{@code x-kubernetes-int-or-string} becomes the types integer and string;
 *   <li>OpenAPI 3.0's boolean {@code exclusiveMinimum}/{@code exclusiveMaximum} become JSON
 *       Schema's numeric ones;
 *   <li>an object with properties and without {@code x-kubernetes-preserve-unknown-fields} refuses
 *       other fields ({@code additionalProperties: false}): kubectl asks for strict field
 *       validation by default, so an unknown field is an error (without it, pruned);
 *   <li>{@code x-kubernetes-list-type: set} becomes {@code uniqueItems}; {@code map} lists are
 *       checked for duplicate keys here;
 *   <li>{@code default} is applied before validation (structural defaulting), not checked;
 *   <li>{@code x-kubernetes-validations} are left to CEL; {@code description}, {@code format} (the
 *       API server checks a few formats; this CRD uses none) and the other {@code x-kubernetes-*}
 *       keys carry no check and are dropped;
 *   <li>at the root, {@code apiVersion}, {@code kind} and {@code metadata} are allowed, as the API
 *       server checks them itself.
 * </ul>
 *
 * <p>CEL rules are compiled against types built from the schema node they sit on, as the API server
 * does (so a rule naming a field the schema lacks does not compile), and evaluated with {@code
 * self} bound to each value at that node; {@code oldSelf} to the stored value at the same place for
 * transition rules, which run on updates only and only where the old value exists. At the root,
 * {@code self} holds {@code apiVersion}, {@code kind}, {@code metadata.name} and {@code
 * metadata.generateName}, no more. As the API server, the rules are not evaluated when the schema
 * found a wrong type or value outside an enum.
 *
 * <p>Not done: the cost estimate (see {@code CrdRuleCostTest}), and the checks of {@code metadata}
 * the API server makes itself.
 */
final class CommittedCrd {
    static final Path FILE = Path.of("../crds/tcploadtests.tcpload.io-v1.yml");

    /** Object names, as the API server checks them itself before any rule. */
    static final int KUBERNETES_NAME_MAX = 253;

    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BLOCKED =
            "some validation rules were not checked because the object was invalid; correct the"
                    + " existing errors to complete validation";

    /**
     * A refusal as kubectl shows it: the field (empty for the object itself) and why. Schema
     * refusals name the JSON-schema keyword; rule refusals carry the rule's message.
     */
    record Violation(String field, String message) {
        @Override
        public String toString() {
            return (field.isEmpty() ? "<root>" : field) + ": " + message;
        }
    }

    /**
     * One rule of {@code x-kubernetes-validations}.
     *
     * @param path where it sits: property names, {@code []} for a list's items, {@code {}} for a
     *     map's values; empty at the root
     * @param node the schema node it sits on
     * @param transition whether it reads {@code oldSelf}
     */
    record Rule(
            List<String> path,
            JsonNode node,
            String rule,
            String message,
            String fieldPath,
            CelAbstractSyntaxTree ast,
            boolean transition,
            CelRuntime.Program program) {
        String where() {
            return path.isEmpty() ? "<root>" : String.join(".", path).replace(".[]", "[]");
        }
    }

    private final JsonNode openApi;
    private final Schema schema;
    private final List<Rule> rules = new ArrayList<>();

    private CommittedCrd(JsonNode openApi) {
        this.openApi = openApi;
        SchemaRegistryConfig config =
                SchemaRegistryConfig.builder()
                        .pathType(PathType.JSON_POINTER)
                        .formatAssertionsEnabled(false)
                        .regularExpressionFactory(
                                pattern -> {
                                    // RE2, as the API server's Go regexp; unanchored, as JSON
                                    // Schema's and the API server's pattern.
                                    com.google.re2j.Pattern re2 =
                                            com.google.re2j.Pattern.compile(pattern);
                                    return text -> re2.matcher(text).find();
                                })
                        .build();
        this.schema =
                SchemaRegistry.withDefaultDialect(
                                SpecificationVersion.DRAFT_2020_12,
                                builder -> builder.schemaRegistryConfig(config))
                        .getSchema(toJsonSchema(openApi, true).toString(), InputFormat.JSON);
        collectRules(new ArrayList<>(), openApi);
    }

    /** The CRD as committed. */
    static CommittedCrd load() {
        try {
            JsonNode crd = YAML.readTree(FILE.toFile());
            return new CommittedCrd(crd.at("/spec/versions/0/schema/openAPIV3Schema"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The OpenAPI schema as committed. */
    JsonNode openApi() {
        return openApi;
    }

    List<Rule> rules() {
        return rules;
    }

    /** What the API server says to a create of {@code object}: nothing when it is stored. */
    List<Violation> create(JsonNode object) {
        return validate(defaulted(object), null);
    }

    /**
     * What it says to an update of the main resource from {@code stored} to {@code updated}: the
     * status of the request is ignored, the stored one kept.
     */
    List<Violation> update(JsonNode stored, JsonNode updated) {
        ObjectNode next = defaulted(updated);
        next.remove("status");
        if (stored.has("status")) {
            next.set("status", stored.get("status").deepCopy());
        }
        return validate(next, defaulted(stored));
    }

    /** What it says to a write of the status subresource: only the status changes. */
    List<Violation> updateStatus(JsonNode stored, JsonNode status) {
        ObjectNode next = defaulted(stored);
        next.set("status", status.deepCopy());
        return validate(next, defaulted(stored));
    }

    private List<Violation> validate(ObjectNode object, ObjectNode old) {
        List<Violation> violations = new ArrayList<>();
        boolean blocked = false;
        List<Error> errors;
        try {
            errors = schema.validate(JSON.writeValueAsString(object), InputFormat.JSON);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Error error : errors) {
            String field = field(error.getInstanceLocation().toString());
            if (error.getProperty() != null
                    && ("required".equals(error.getKeyword())
                            || "additionalProperties".equals(error.getKeyword()))) {
                field = join(field, error.getProperty());
            }
            violations.add(new Violation(field, error.getKeyword() + ": " + error.getMessage()));
            // The API server's "blocking" errors: a wrong type, or a value outside an enum.
            blocked |= "type".equals(error.getKeyword()) || "enum".equals(error.getKeyword());
        }
        listMapKeys(openApi, object, "", violations);
        if (blocked) {
            violations.add(new Violation("", BLOCKED));
            return violations;
        }
        for (Rule rule : rules) {
            for (Located at : locate(rule.path(), object, old, "")) {
                if (rule.transition() && at.old() == null) {
                    continue;
                }
                Map<String, Object> variables = new LinkedHashMap<>();
                variables.put("self", celValue(at.value(), rule.node(), rule.path().isEmpty()));
                if (rule.transition()) {
                    variables.put(
                            "oldSelf", celValue(at.old(), rule.node(), rule.path().isEmpty()));
                }
                String field =
                        rule.fieldPath() == null
                                ? at.field()
                                : (at.field() + rule.fieldPath()).replaceFirst("^\\.", "");
                try {
                    Object result = rule.program().eval(variables);
                    if (!Boolean.TRUE.equals(result)) {
                        violations.add(new Violation(field, rule.message()));
                    }
                } catch (CelEvaluationException e) {
                    violations.add(new Violation(field, "rule error: " + e.getMessage()));
                }
            }
        }
        return violations;
    }

    // ---- Defaulting, as the API server's structural defaulting.

    private ObjectNode defaulted(JsonNode object) {
        ObjectNode copy = object.deepCopy();
        applyDefaults(copy, openApi);
        return copy;
    }

    private static void applyDefaults(JsonNode value, JsonNode schema) {
        if (value.isObject()) {
            ObjectNode object = (ObjectNode) value;
            JsonNode properties = schema.get("properties");
            if (properties != null) {
                for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields();
                        it.hasNext(); ) {
                    Map.Entry<String, JsonNode> property = it.next();
                    JsonNode child = object.get(property.getKey());
                    if (child != null
                            && child.isNull()
                            && !property.getValue().path("nullable").asBoolean(false)) {
                        object.remove(property.getKey());
                        child = null;
                    }
                    if (child == null && property.getValue().has("default")) {
                        object.set(
                                property.getKey(), property.getValue().get("default").deepCopy());
                    }
                    if (object.has(property.getKey())) {
                        applyDefaults(object.get(property.getKey()), property.getValue());
                    }
                }
            }
            JsonNode values = schema.get("additionalProperties");
            if (values != null && values.isObject()) {
                object.elements().forEachRemaining(child -> applyDefaults(child, values));
            }
        } else if (value.isArray() && schema.has("items")) {
            value.elements().forEachRemaining(item -> applyDefaults(item, schema.get("items")));
        }
    }

    // ---- OpenAPI v3 (structural, with Kubernetes' extensions) to JSON Schema 2020-12.

    private static final List<String> SAME_KEYWORDS =
            List.of(
                    "required",
                    "enum",
                    "pattern",
                    "maxLength",
                    "minLength",
                    "maxItems",
                    "minItems",
                    "maxProperties",
                    "minProperties",
                    "minimum",
                    "maximum",
                    "multipleOf",
                    "uniqueItems");

    static ObjectNode toJsonSchema(JsonNode openApi, boolean root) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        if (root) {
            out.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        }
        boolean nullable = openApi.path("nullable").asBoolean(false);
        if (openApi.path("x-kubernetes-int-or-string").asBoolean(false)) {
            ArrayNode types = out.putArray("type").add("integer").add("string");
            if (nullable) {
                types.add("null");
            }
        } else if (openApi.has("type")) {
            if (nullable) {
                out.putArray("type").add(openApi.get("type").asText()).add("null");
            } else {
                out.put("type", openApi.get("type").asText());
            }
        }
        for (String keyword : SAME_KEYWORDS) {
            if (openApi.has(keyword)) {
                out.set(keyword, openApi.get(keyword).deepCopy());
            }
        }
        if (nullable && out.has("enum")) {
            ((ArrayNode) out.get("enum")).addNull();
        }
        exclusive(openApi, out, "exclusiveMinimum", "minimum");
        exclusive(openApi, out, "exclusiveMaximum", "maximum");
        if ("set".equals(openApi.path("x-kubernetes-list-type").asText())) {
            out.put("uniqueItems", true);
        }
        for (String combinator : List.of("anyOf", "allOf", "oneOf")) {
            if (openApi.has(combinator)) {
                ArrayNode converted = out.putArray(combinator);
                openApi.get(combinator).forEach(s -> converted.add(toJsonSchema(s, false)));
            }
        }
        if (openApi.has("not")) {
            out.set("not", toJsonSchema(openApi.get("not"), false));
        }
        if (openApi.has("items")) {
            out.set("items", toJsonSchema(openApi.get("items"), false));
        }
        ObjectNode properties = null;
        if (openApi.has("properties")) {
            properties = out.putObject("properties");
            for (Iterator<Map.Entry<String, JsonNode>> it = openApi.get("properties").fields();
                    it.hasNext(); ) {
                Map.Entry<String, JsonNode> property = it.next();
                properties.set(property.getKey(), toJsonSchema(property.getValue(), false));
            }
        }
        if (root) {
            if (properties == null) {
                properties = out.putObject("properties");
            }
            properties.putObject("apiVersion").put("type", "string");
            properties.putObject("kind").put("type", "string");
            properties.putObject("metadata").put("type", "object");
        }
        boolean preserve = openApi.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        JsonNode additional = openApi.get("additionalProperties");
        if (additional != null) {
            out.set(
                    "additionalProperties",
                    additional.isObject() ? toJsonSchema(additional, false) : additional);
        } else if (properties != null && !preserve) {
            out.put("additionalProperties", false);
        }
        return out;
    }

    private static void exclusive(JsonNode openApi, ObjectNode out, String keyword, String bound) {
        if (openApi.path(keyword).asBoolean(false) && openApi.has(bound)) {
            out.remove(bound);
            out.set(keyword, openApi.get(bound).deepCopy());
        }
    }

    /** {@code x-kubernetes-list-type: map}: no two items with the same keys. */
    private static void listMapKeys(
            JsonNode schema, JsonNode value, String field, List<Violation> violations) {
        if (value == null || schema == null) {
            return;
        }
        if (value.isArray()) {
            if ("map".equals(schema.path("x-kubernetes-list-type").asText())) {
                List<List<JsonNode>> seen = new ArrayList<>();
                for (int i = 0; i < value.size(); i++) {
                    List<JsonNode> keys = new ArrayList<>();
                    for (JsonNode key : schema.path("x-kubernetes-list-map-keys")) {
                        keys.add(value.get(i).get(key.asText()));
                    }
                    if (seen.contains(keys)) {
                        violations.add(
                                new Violation(field + "[" + i + "]", "Duplicate value: " + keys));
                    }
                    seen.add(keys);
                }
            }
            for (int i = 0; i < value.size(); i++) {
                listMapKeys(schema.get("items"), value.get(i), field + "[" + i + "]", violations);
            }
        } else if (value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> child = it.next();
                JsonNode childSchema = schema.path("properties").get(child.getKey());
                if (childSchema == null && schema.path("additionalProperties").isObject()) {
                    childSchema = schema.get("additionalProperties");
                }
                listMapKeys(childSchema, child.getValue(), join(field, child.getKey()), violations);
            }
        }
    }

    // ---- CEL: the rules, their types and values.

    private void collectRules(List<String> path, JsonNode node) {
        for (JsonNode rule : node.path("x-kubernetes-validations")) {
            rules.add(compile(List.copyOf(path), node, rule));
        }
        node.path("properties")
                .fields()
                .forEachRemaining(
                        property -> {
                            path.add(property.getKey());
                            collectRules(path, property.getValue());
                            path.remove(path.size() - 1);
                        });
        if (node.has("items")) {
            path.add("[]");
            collectRules(path, node.get("items"));
            path.remove(path.size() - 1);
        }
        if (node.path("additionalProperties").isObject()) {
            path.add("{}");
            collectRules(path, node.get("additionalProperties"));
            path.remove(path.size() - 1);
        }
    }

    private static Rule compile(List<String> path, JsonNode node, JsonNode rule) {
        String expression = rule.get("rule").asText();
        Map<String, CelType> types = new LinkedHashMap<>();
        StringBuilder typeName = new StringBuilder("tcpload.crd");
        for (String segment : path) {
            typeName.append('.').append(segment.replace("[]", "item").replace("{}", "value"));
        }
        CelType self = celType(node, typeName.toString(), types, path.isEmpty());
        CelTypeProvider provider =
                new CelTypeProvider() {
                    @Override
                    public ImmutableCollection<CelType> types() {
                        return ImmutableList.copyOf(types.values());
                    }

                    @Override
                    public Optional<CelType> findType(String name) {
                        return Optional.ofNullable(types.get(name));
                    }
                };
        CelCompiler compiler =
                CelCompilerFactory.standardCelCompilerBuilder()
                        .setTypeProvider(provider)
                        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                        .addVar("self", self)
                        .addVar("oldSelf", self)
                        .setResultType(SimpleType.BOOL)
                        .build();
        try {
            CelAbstractSyntaxTree ast = compiler.compile(expression).getAst();
            CelRuntime runtime = CelRuntimeFactory.standardCelRuntimeBuilder().build();
            return new Rule(
                    path,
                    node,
                    expression,
                    rule.path("message").asText(null),
                    rule.path("fieldPath").asText(null),
                    ast,
                    mentions(ast.getExpr(), "oldSelf"),
                    runtime.createProgram(ast));
        } catch (CelValidationException | CelEvaluationException e) {
            throw new IllegalStateException(
                    "the rule at "
                            + path
                            + " does not compile, so an API server would refuse the"
                            + " CRD: "
                            + e.getMessage(),
                    e);
        }
    }

    /** The CEL type of values at {@code schema}, as the API server declares it. */
    private static CelType celType(
            JsonNode schema, String name, Map<String, CelType> types, boolean root) {
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return SimpleType.DYN;
        }
        switch (schema.path("type").asText()) {
            case "string":
                return SimpleType.STRING;
            case "integer":
                return SimpleType.INT;
            case "number":
                return SimpleType.DOUBLE;
            case "boolean":
                return SimpleType.BOOL;
            case "array":
                return ListType.create(celType(schema.get("items"), name + "_item", types, false));
            case "object":
                break;
            default:
                return SimpleType.DYN;
        }
        if (schema.path("additionalProperties").isObject()) {
            return MapType.create(
                    SimpleType.STRING,
                    celType(schema.get("additionalProperties"), name + "_value", types, false));
        }
        Map<String, CelType> fields = new LinkedHashMap<>();
        schema.path("properties")
                .fields()
                .forEachRemaining(
                        p ->
                                fields.put(
                                        p.getKey(),
                                        celType(
                                                p.getValue(),
                                                name + "." + p.getKey(),
                                                types,
                                                false)));
        if (root) {
            fields.put("apiVersion", SimpleType.STRING);
            fields.put("kind", SimpleType.STRING);
            Map<String, CelType> metadata =
                    Map.of("name", SimpleType.STRING, "generateName", SimpleType.STRING);
            StructType meta =
                    StructType.create(
                            name + ".metadata",
                            ImmutableSet.copyOf(metadata.keySet()),
                            field -> Optional.ofNullable(metadata.get(field)));
            types.put(meta.name(), meta);
            fields.put("metadata", meta);
        }
        if (fields.isEmpty()) {
            return SimpleType.DYN;
        }
        StructType struct =
                StructType.create(
                        name,
                        ImmutableSet.copyOf(fields.keySet()),
                        field -> Optional.ofNullable(fields.get(field)));
        types.put(struct.name(), struct);
        return struct;
    }

    /** The CEL value of {@code value} at {@code schema}: what the schema declares, no more. */
    private static Object celValue(JsonNode value, JsonNode schema, boolean root) {
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return value.isIntegralNumber() ? (Object) value.asLong() : value.asText();
        }
        switch (schema.path("type").asText()) {
            case "string":
                return value.asText();
            case "integer":
                return value.asLong();
            case "number":
                return value.asDouble();
            case "boolean":
                return value.asBoolean();
            case "array":
                List<Object> items = new ArrayList<>();
                value.forEach(item -> items.add(celValue(item, schema.get("items"), false)));
                return items;
            case "object":
                break;
            default:
                return JSON.convertValue(value, Object.class);
        }
        Map<String, Object> object = new LinkedHashMap<>();
        JsonNode values = schema.get("additionalProperties");
        value.fields()
                .forEachRemaining(
                        child -> {
                            JsonNode childSchema = schema.path("properties").get(child.getKey());
                            if (childSchema == null && values != null && values.isObject()) {
                                childSchema = values;
                            }
                            if (childSchema != null) {
                                object.put(
                                        child.getKey(),
                                        celValue(child.getValue(), childSchema, false));
                            }
                        });
        if (root) {
            object.put("apiVersion", value.path("apiVersion").asText());
            object.put("kind", value.path("kind").asText());
            Map<String, Object> metadata = new LinkedHashMap<>();
            for (String field : List.of("name", "generateName")) {
                if (value.path("metadata").has(field)) {
                    metadata.put(field, value.path("metadata").get(field).asText());
                }
            }
            object.put("metadata", metadata);
        }
        return object;
    }

    /** A value at a rule's node, with the stored one at the same place (or null). */
    private record Located(String field, JsonNode value, JsonNode old) {}

    /**
     * The values at {@code path}. The old value is the one at the same property or map key; list
     * items are correlated only in lists of {@code x-kubernetes-list-type: map}, by key, as the API
     * server does; this CRD has none, so no old value for a list item.
     */
    private static List<Located> locate(
            List<String> path, JsonNode value, JsonNode old, String field) {
        if (path.isEmpty()) {
            return List.of(new Located(field, value, old));
        }
        String head = path.get(0);
        List<String> rest = path.subList(1, path.size());
        List<Located> found = new ArrayList<>();
        if (head.equals("[]")) {
            for (int i = 0; i < value.size(); i++) {
                found.addAll(locate(rest, value.get(i), null, field + "[" + i + "]"));
            }
        } else if (head.equals("{}")) {
            value.fields()
                    .forEachRemaining(
                            e ->
                                    found.addAll(
                                            locate(
                                                    rest,
                                                    e.getValue(),
                                                    old == null ? null : old.get(e.getKey()),
                                                    field + "[" + e.getKey() + "]")));
        } else if (value.has(head)) {
            found.addAll(
                    locate(
                            rest,
                            value.get(head),
                            old == null ? null : old.get(head),
                            join(field, head)));
        }
        return found;
    }

    static boolean mentions(CelExpr expr, String identifier) {
        List<Boolean> found = new ArrayList<>();
        RuleReach.visit(
                expr,
                e -> {
                    if (e.getKind() == CelExpr.ExprKind.Kind.IDENT
                            && e.ident().name().equals(identifier)) {
                        found.add(true);
                    }
                });
        return !found.isEmpty();
    }

    /** {@code /spec/files/0/name} as {@code spec.files[0].name}. */
    private static String field(String pointer) {
        StringBuilder field = new StringBuilder();
        for (String segment : pointer.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            String name = segment.replace("~1", "/").replace("~0", "~");
            if (name.chars().allMatch(Character::isDigit)) {
                field.append('[').append(name).append(']');
            } else {
                field.append(field.length() == 0 ? "" : ".").append(name);
            }
        }
        return field.toString();
    }

    private static String join(String field, String name) {
        return field.isEmpty() ? name : field + "." + name;
    }
}
