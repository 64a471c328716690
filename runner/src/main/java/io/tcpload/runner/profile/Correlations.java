package io.tcpload.runner.profile;

import io.tcpload.runner.profile.Section.Keys;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules between the values carried from responses ({@code rsp_extract}, {@code rsp_echo}) and
 * the templates: an extracted variable is usable as {@code $(NAME)} like a parameter, but is never
 * one, and an echo check names a value some request it judges sends.
 */
final class Correlations {
    private Correlations() {}

    /**
     * The names a template may use: the declared parameters, then the variables of every {@code
     * rsp_extract} (of {@code [response]} and each {@code [response.NAME]}). A variable that is
     * also a parameter is an error: a request could not tell which value it means.
     */
    static Set<String> usableNames(IniDocument document, Set<String> declared, Problems problems) {
        Set<String> usable = new LinkedHashSet<>(declared);
        List<IniEntry> extracts = new ArrayList<>(document.all(Section.RESPONSE, Keys.RSP_EXTRACT));
        for (IniDocument.Named named : document.named(Section.RESPONSE)) {
            extracts.addAll(named.document().all(Section.RESPONSE, Keys.RSP_EXTRACT));
        }
        for (IniEntry entry : extracts) {
            int comma = entry.value().indexOf(',');
            String name =
                    IniLines.trimBlanks(
                            comma < 0 ? entry.value() : entry.value().substring(0, comma));
            if (declared.contains(name)) {
                problems.error(
                        entry.line(),
                        entry.key(),
                        name
                                + " is a parameter in [parameters]: name the extracted value"
                                + " otherwise.");
            } else if (!name.isEmpty()) {
                usable.add(name);
            }
        }
        return usable;
    }

    /**
     * Every {@code rsp_echo} must name a value that at least one request it judges sends: a request
     * without {@code $(NAME)} is not checked by that rule, but a rule that checks nothing is a
     * mistake.
     */
    static void checkEchoes(
            RequestSpec plain, ResponseSpec response, List<NamedRequest> mix, Problems problems) {
        Map<ValueRule, Boolean> used = new IdentityHashMap<>();
        if (mix.isEmpty()) {
            if (plain != null) {
                mark(plain, response, used);
            }
        } else {
            for (NamedRequest named : mix) {
                mark(named.request(), named.response(), used);
            }
        }
        for (Map.Entry<ValueRule, Boolean> rule : used.entrySet()) {
            if (!rule.getValue()) {
                ValueRule echo = rule.getKey();
                problems.error(
                        echo.line(),
                        Keys.RSP_ECHO,
                        "no request it judges sends $("
                                + echo.name()
                                + "): an echo check compares the value a request sent with the"
                                + " one in its response.");
            }
        }
    }

    private static void mark(
            RequestSpec request, ResponseSpec judged, Map<ValueRule, Boolean> used) {
        for (ValueRule echo : judged.echoes()) {
            boolean sends = uses(request, echo.name());
            used.merge(echo, sends, Boolean::logicalOr);
        }
    }

    /** Whether the request's head or body holds {@code $(name)}. */
    static boolean uses(RequestSpec request, String name) {
        String placeholder = "$(" + name + ")";
        return request.headTemplate().contains(placeholder)
                || request.bodyTemplate().contains(placeholder);
    }
}
