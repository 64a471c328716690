package io.tcpload.operator.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cel.common.ast.CelExpr;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What of the object a CEL rule can reach, and whether all of it is bounded.
 *
 * <p>A rule reads the value of every field path it names from {@code self} or {@code oldSelf}
 * ({@code self.runner.image}), and the whole of {@code self} where it uses {@code self} itself
 * ({@code self == oldSelf}, {@code self.all(...)}). Selecting through a field ({@code self.runner}
 * in {@code self.runner.image}) reads nothing of it, and {@code has()} reads only presence. A read
 * value reaches all it contains: an equality, a {@code size} or a macro can go through all of it.
 *
 * <p>The API server estimates a rule's cost from the largest values it can meet, taken from {@code
 * maxLength}, {@code maxItems} and {@code maxProperties}, or from the largest request where they
 * are absent; and it charges an equality or a macro by the size of its operand, not by what that
 * holds. So a rule whose reach holds an unbounded string, list or map has a real cost that no bound
 * limits even where the estimate passes. The check here is stricter than the estimate: every string
 * reached has {@code maxLength} (or an {@code enum}), every list {@code maxItems}, every map {@code
 * maxProperties}, and every list the rule's node is inside has {@code maxItems} (the rule runs once
 * per item). Kubernetes' own embedded types, which the CRD generator cannot bound, must then stay
 * out of reach.
 */
final class RuleReach {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * {@code metadata} at the root, as the API server exposes it to rules: the name and generate
     * name, which it has already checked to be at most 253 characters (object names).
     */
    private static final JsonNode ROOT_METADATA =
            JSON.valueToTree(
                    java.util.Map.of(
                            "type",
                            "object",
                            "properties",
                            java.util.Map.of(
                                    "name",
                                    java.util.Map.of(
                                            "type",
                                            "string",
                                            "maxLength",
                                            CommittedCrd.KUBERNETES_NAME_MAX),
                                    "generateName",
                                    java.util.Map.of(
                                            "type",
                                            "string",
                                            "maxLength",
                                            CommittedCrd.KUBERNETES_NAME_MAX))));

    private RuleReach() {}

    /** Calls {@code visitor} on {@code expr} and every expression inside it. */
    static void visit(CelExpr expr, Consumer<CelExpr> visitor) {
        visitor.accept(expr);
        for (CelExpr child : children(expr)) {
            visit(child, visitor);
        }
    }

    /** The field paths, from the rule's node, whose values the rule reads ({@code []}: itself). */
    static Set<List<String>> valuesRead(CelExpr expr) {
        Set<List<String>> read = new LinkedHashSet<>();
        read(expr, read);
        return read;
    }

    /**
     * Where the values the rule reads hold an unbounded string, list or map, or the rule's node is
     * inside an unbounded list: empty when its cost is bounded.
     *
     * @param root the CRD's OpenAPI schema
     * @param path the rule's node, as {@link CommittedCrd.Rule#path()}
     */
    static List<String> unbounded(JsonNode root, List<String> path, CelExpr expr) {
        List<String> found = new ArrayList<>();
        JsonNode node = root;
        StringBuilder at = new StringBuilder();
        for (String segment : path) {
            if (segment.equals("[]") && !node.has("maxItems")) {
                found.add(at + ": the rule's node is inside a list without maxItems");
            }
            if (segment.equals("{}") && !node.has("maxProperties")) {
                found.add(at + ": the rule's node is inside a map without maxProperties");
            }
            node = child(node, segment, false);
            boolean index = segment.startsWith("[") || segment.startsWith("{");
            at.append(index || at.length() == 0 ? "" : ".").append(segment);
        }
        for (List<String> read : valuesRead(expr)) {
            JsonNode schema = node;
            StringBuilder field = new StringBuilder(at);
            for (int i = 0; i < read.size(); i++) {
                String name = read.get(i);
                schema = child(schema, name, path.isEmpty() && i == 0);
                field.append(field.length() == 0 ? "" : ".").append(name);
                if (schema == null) {
                    found.add(field + ": not in the schema");
                    break;
                }
            }
            if (schema != null) {
                unboundedWithin(schema, field.length() == 0 ? "<root>" : field.toString(), found);
            }
        }
        return found;
    }

    private static void unboundedWithin(JsonNode schema, String field, List<String> found) {
        boolean intOrString = schema.path("x-kubernetes-int-or-string").asBoolean(false);
        String type = schema.path("type").asText();
        if ((intOrString || type.equals("string"))
                && !schema.has("maxLength")
                && !schema.has("enum")) {
            found.add(field + ": a string without maxLength");
        }
        if (type.equals("array")) {
            if (!schema.has("maxItems")) {
                found.add(field + ": a list without maxItems");
            }
            unboundedWithin(schema.get("items"), field + "[]", found);
        }
        if (type.equals("object")) {
            JsonNode values = schema.get("additionalProperties");
            if (values != null && values.isObject()) {
                if (!schema.has("maxProperties")) {
                    found.add(field + ": a map without maxProperties");
                }
                unboundedWithin(values, field + "{}", found);
            }
            schema.path("properties")
                    .fields()
                    .forEachRemaining(
                            p -> unboundedWithin(p.getValue(), field + "." + p.getKey(), found));
        }
    }

    private static JsonNode child(JsonNode schema, String segment, boolean atRoot) {
        if (atRoot && segment.equals("metadata")) {
            return ROOT_METADATA;
        }
        return switch (segment) {
            case "[]" -> schema.get("items");
            case "{}" -> schema.get("additionalProperties");
            default -> schema.path("properties").get(segment);
        };
    }

    private static void read(CelExpr expr, Set<List<String>> read) {
        if (expr.getKind() == CelExpr.ExprKind.Kind.SELECT) {
            CelExpr.CelSelect select = expr.select();
            if (select.testOnly()) {
                // has(x.f): the presence of f; x is only gone through.
                if (path(select.operand()) == null) {
                    read(select.operand(), read);
                }
                return;
            }
            List<String> path = path(expr);
            if (path != null) {
                read.add(path);
                return;
            }
        }
        if (expr.getKind() == CelExpr.ExprKind.Kind.IDENT && path(expr) != null) {
            read.add(List.of());
            return;
        }
        for (CelExpr child : children(expr)) {
            read(child, read);
        }
    }

    /** {@code self.a.b} as {@code [a, b]}; null when not a path from self or oldSelf. */
    private static List<String> path(CelExpr expr) {
        if (expr.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            String name = expr.ident().name();
            return name.equals("self") || name.equals("oldSelf") ? new ArrayList<>() : null;
        }
        if (expr.getKind() == CelExpr.ExprKind.Kind.SELECT && !expr.select().testOnly()) {
            List<String> operand = path(expr.select().operand());
            if (operand != null) {
                operand.add(expr.select().field());
            }
            return operand;
        }
        return null;
    }

    private static List<CelExpr> children(CelExpr expr) {
        List<CelExpr> children = new ArrayList<>();
        switch (expr.getKind()) {
            case SELECT -> children.add(expr.select().operand());
            case CALL -> {
                expr.call().target().ifPresent(children::add);
                children.addAll(expr.call().args());
            }
            case LIST -> children.addAll(expr.list().elements());
            case MAP ->
                    expr.map()
                            .entries()
                            .forEach(
                                    e -> {
                                        children.add(e.key());
                                        children.add(e.value());
                                    });
            case STRUCT -> expr.struct().entries().forEach(e -> children.add(e.value()));
            case COMPREHENSION -> {
                CelExpr.CelComprehension c = expr.comprehension();
                children.add(c.iterRange());
                children.add(c.accuInit());
                children.add(c.loopCondition());
                children.add(c.loopStep());
                children.add(c.result());
            }
            default -> {}
        }
        return children;
    }
}
