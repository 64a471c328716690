package io.tcpload.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.CelValidationException;
import dev.cel.common.ast.CelExpr;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import io.tcpload.operator.crd.CommittedCrd.Rule;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CEL rules of the committed CRD have a bounded cost: each reaches only strings, lists and maps
 * with a {@code maxLength}, {@code maxItems} or {@code maxProperties} ({@link RuleReach} says how
 * reach is counted and why it is stricter than the API server's estimate). No API server computes
 * the estimate here; docs/testing.md says so under what is not proven.
 */
class CrdRuleCostTest {
    private static final Set<String> KUBERNETES_TYPES = KubernetesTypedFields.NAMES;

    private static CommittedCrd crd;

    @BeforeAll
    static void load() {
        crd = CommittedCrd.load();
    }

    @Test
    void everyRuleReachesOnlyBoundedFields() {
        assertThat(crd.rules()).hasSizeGreaterThanOrEqualTo(11);
        List<String> unbounded = new ArrayList<>();
        for (Rule rule : crd.rules()) {
            for (String where :
                    RuleReach.unbounded(crd.openApi(), rule.path(), rule.ast().getExpr())) {
                unbounded.add(rule.where() + " '" + rule.rule() + "' reaches " + where);
            }
        }
        assertThat(unbounded).isEmpty();
    }

    /** The check sees what {@code self == oldSelf} on spec would reach, embedded types and all. */
    @Test
    void theCheckFindsWhatAWholeSpecComparisonWouldReach() throws CelValidationException {
        List<String> unbounded =
                RuleReach.unbounded(crd.openApi(), List.of("spec"), parse("self == oldSelf"));
        assertThat(unbounded)
                .anyMatch(w -> w.startsWith("spec.runner.tolerations: a list without maxItems"))
                .anyMatch(w -> w.startsWith("spec.runner.env[].value: a string without maxLength"))
                .anyMatch(w -> w.startsWith("spec.runner.resources.limits: a map without"))
                .noneMatch(w -> w.startsWith("spec.profile"));
        assertThat(
                        RuleReach.unbounded(
                                crd.openApi(),
                                List.of("spec"),
                                parse("self.runner.tolerations.all(t, has(t.key))")))
                .containsExactly(
                        "spec.runner.tolerations: a list without maxItems",
                        "spec.runner.tolerations[].effect: a string without maxLength",
                        "spec.runner.tolerations[].key: a string without maxLength",
                        "spec.runner.tolerations[].operator: a string without maxLength",
                        "spec.runner.tolerations[].value: a string without maxLength");
        // Presence is not reach: has() of an embedded type costs nothing of it.
        assertThat(
                        RuleReach.unbounded(
                                crd.openApi(), List.of("spec"), parse("has(self.runner.affinity)")))
                .isEmpty();
    }

    /** Every field of the spec is compared by the immutability rule, or left out by name. */
    @Test
    void theImmutabilityRuleComparesEveryFieldButKubernetesOwnTypes() {
        List<Rule> transitions = crd.rules().stream().filter(Rule::transition).toList();
        assertThat(transitions).hasSize(1);
        Rule immutable = transitions.get(0);
        assertThat(immutable.where()).isEqualTo("spec");
        assertThat(immutable.message()).isEqualTo(SpecRules.IMMUTABLE_MESSAGE);

        Set<String> compared = new TreeSet<>();
        for (List<String> path : RuleReach.valuesRead(immutable.ast().getExpr())) {
            compared.add(String.join(".", path));
        }
        Set<String> expected = new TreeSet<>();
        JsonNode spec = crd.openApi().at("/properties/spec/properties");
        spec.fieldNames().forEachRemaining(expected::add);
        expected.remove("runner");
        spec.at("/runner/properties")
                .fieldNames()
                .forEachRemaining(
                        name -> {
                            if (!KUBERNETES_TYPES.contains(name)) {
                                expected.add("runner." + name);
                            }
                        });
        assertThat(compared).isEqualTo(expected);
        Set<String> left = new LinkedHashSet<>();
        spec.at("/runner/properties").fieldNames().forEachRemaining(left::add);
        Set<String> runnerTypes = new TreeSet<>(KUBERNETES_TYPES);
        runnerTypes.remove("conditions");
        assertThat(left).as("fields of spec.runner").containsAll(runnerTypes);
    }

    /** The rules need nothing beyond standard CEL, which every Kubernetes from 1.29 has. */
    @Test
    void everyRuleHasAMessageAndUsesStandardCelOnly() {
        for (Rule rule : crd.rules()) {
            assertThat(rule.message()).as(rule.rule()).isNotBlank();
            RuleReach.visit(
                    rule.ast().getExpr(),
                    e -> {
                        if (e.getKind() == CelExpr.ExprKind.Kind.CALL) {
                            assertThat(e.call().function())
                                    .as("a function of %s", rule.rule())
                                    .isIn(STANDARD_FUNCTIONS);
                        }
                    });
        }
    }

    /** The functions the rules call (macros are expanded to these), all in standard CEL. */
    private static final Set<String> STANDARD_FUNCTIONS =
            Set.of(
                    "_&&_",
                    "_||_",
                    "!_",
                    "_==_",
                    "_!=_",
                    "_<_",
                    "_<=_",
                    "_>_",
                    "_>=_",
                    "_+_",
                    "_-_",
                    "_*_",
                    "_?_:_",
                    "size",
                    "string",
                    "contains",
                    "@not_strictly_false");

    private static CelExpr parse(String expression) throws CelValidationException {
        return CelCompilerFactory.standardCelCompilerBuilder()
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .build()
                .parse(expression)
                .getAst()
                .getExpr();
    }
}
