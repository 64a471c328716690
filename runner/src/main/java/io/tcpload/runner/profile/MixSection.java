package io.tcpload.runner.profile;

import io.tcpload.runner.profile.IniDocument.Named;
import io.tcpload.runner.profile.Section.Keys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a transaction mix: the {@code [request.NAME]} sections, each with its {@code weight}, and
 * the {@code [response.NAME]} sections that judge some of them differently. A profile is either one
 * plain {@code [request]} or a mix; a mix's limits (how many names, how heavy a weight) are the
 * runner's and are checked by its plan.
 */
final class MixSection {
    private static final Map<String, Boolean> BOOLEANS = Map.of("true", true, "false", false);

    private MixSection() {}

    /**
     * @param base {@code [response]}: the framing of every response, and the judging of requests
     *     without a {@code [response.NAME]}
     * @return the named requests in file order; empty for a plain profile
     */
    static List<NamedRequest> read(
            IniDocument document,
            Optional<IniEntry> httpLine,
            Set<String> declared,
            ResponseSpec base,
            Problems problems) {
        List<Named> requests = document.named(Section.REQUEST);
        Map<String, Named> responses = new HashMap<>();
        for (Named response : document.named(Section.RESPONSE)) {
            responses.put(response.name(), response);
        }
        document.last(Section.REQUEST, Keys.SIGN_ON)
                .ifPresent(
                        e ->
                                problems.error(
                                        e.line(),
                                        e.key(),
                                        "only a named request can be a sign-on: write it as a"
                                                + " [request.NAME] section beside the requests of"
                                                + " the mix."));
        document.last(Section.REQUEST, Keys.WEIGHT)
                .ifPresent(
                        e ->
                                problems.error(
                                        e.line(),
                                        e.key(),
                                        "only a named request has a weight: write the requests"
                                                + " of a transaction mix as [request.NAME]"
                                                + " sections."));
        if (!requests.isEmpty() && document.hasSection(Section.REQUEST)) {
            int line =
                    document.entries(Section.REQUEST).stream()
                            .mapToInt(IniEntry::line)
                            .findFirst()
                            .orElse(requests.get(0).headerLine());
            problems.error(
                    line,
                    "[request]",
                    "a profile has one [request] or named [request.NAME] sections, not both:"
                            + " name every request of the transaction mix.");
        }
        List<NamedRequest> mix = new ArrayList<>(requests.size());
        for (Named request : requests) {
            String header = "[request." + request.name() + "]";
            RequestSpec spec =
                    RequestSection.read(
                            request.document(),
                            httpLine,
                            declared,
                            header,
                            request.headerLine(),
                            problems);
            int weight =
                    (int)
                            Values.integerOr(
                                    request.document().last(Section.REQUEST, Keys.WEIGHT),
                                    1,
                                    Integer.MAX_VALUE,
                                    1,
                                    problems);
            Optional<IniEntry> signOnEntry = request.document().last(Section.REQUEST, Keys.SIGN_ON);
            boolean signOn =
                    signOnEntry.flatMap(e -> Values.choice(e, BOOLEANS, problems)).orElse(false);
            Optional<IniEntry> weighted = request.document().last(Section.REQUEST, Keys.WEIGHT);
            if (signOn && weighted.isPresent()) {
                problems.error(
                        weighted.get().line(),
                        Keys.WEIGHT,
                        "a sign-on runs once per connection, outside the mix: it has no weight.");
            }
            Named response = responses.remove(request.name());
            ResponseSpec judged =
                    response == null
                            ? base
                            : ResponseSection.readNamed(
                                    response.document(), base, httpLine.isPresent(), problems);
            mix.add(
                    new NamedRequest(
                            request.name(), request.headerLine(), weight, spec, judged, signOn));
        }
        if (!mix.isEmpty() && mix.stream().allMatch(NamedRequest::signOn)) {
            problems.error(
                    mix.get(0).line(),
                    "[request." + mix.get(0).name() + "]",
                    "every named request is a sign-on: the mix needs at least one request"
                            + " without sign_on = true.");
        }
        for (Named orphan : document.named(Section.RESPONSE)) {
            if (responses.containsKey(orphan.name())) {
                problems.error(
                        orphan.headerLine(),
                        "[response." + orphan.name() + "]",
                        "there is no [request." + orphan.name() + "] for it to judge.");
            }
        }
        return mix;
    }
}
