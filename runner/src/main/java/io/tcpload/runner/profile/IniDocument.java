package io.tcpload.runner.profile;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The entries of a profile, grouped by section in file order. The sections of fixed keys are also
 * indexed by key, so that looking a key up costs the same in a profile of a million lines; {@code
 * [parameters]}, whose keys are names chosen by the user, is only read in order. Built once by
 * {@link IniParser}.
 */
final class IniDocument {
    private final Map<Section, List<IniEntry>> entries = new EnumMap<>(Section.class);
    private final Map<Section, Map<String, List<IniEntry>>> byKey = new EnumMap<>(Section.class);

    /** The plain sections whose header appears, entries or not. */
    private final Set<Section> plainHeaders = EnumSet.noneOf(Section.class);

    /**
     * The {@code [request.NAME]} and {@code [response.NAME]} sections, each a document of its own.
     */
    private final Map<Section, Map<String, Named>> named = new EnumMap<>(Section.class);

    /**
     * A named section: its first header's line and its entries, filed under the plain section so
     * that the section readers read it as they read a plain one.
     */
    record Named(String name, int headerLine, IniDocument document) {}

    /** Opens (or reopens, when the header repeats) the named section {@code name}. */
    void openNamed(Section section, String name, int headerLine) {
        named.computeIfAbsent(section, s -> new LinkedHashMap<>())
                .computeIfAbsent(name, n -> new Named(n, headerLine, new IniDocument()));
    }

    /** The named sections of {@code section}, in the order their headers first appear. */
    List<Named> named(Section section) {
        return List.copyOf(named.getOrDefault(section, Map.of()).values());
    }

    void add(IniEntry entry) {
        if (!entry.name().isEmpty()) {
            named.get(entry.section()).get(entry.name()).document().addPlain(entry);
            return;
        }
        addPlain(entry);
    }

    /** Whether the plain section has a header or an entry. */
    boolean hasSection(Section section) {
        return plainHeaders.contains(section) || entries.containsKey(section);
    }

    /** Notes a plain section header, so that an empty {@code [request]} is still seen. */
    void openPlain(Section section) {
        plainHeaders.add(section);
    }

    private void addPlain(IniEntry entry) {
        entries.computeIfAbsent(entry.section(), s -> new ArrayList<>()).add(entry);
        if (entry.section() == Section.PARAMETERS) {
            return;
        }
        byKey.computeIfAbsent(entry.section(), s -> new HashMap<>())
                .computeIfAbsent(entry.key(), k -> new ArrayList<>())
                .add(entry);
    }

    /** Every entry of the section, in file order. */
    List<IniEntry> entries(Section section) {
        return Collections.unmodifiableList(entries.getOrDefault(section, List.of()));
    }

    /** Every entry of the key, in file order; not for {@code [parameters]}. */
    List<IniEntry> all(Section section, String key) {
        return Collections.unmodifiableList(
                byKey.getOrDefault(section, Map.of()).getOrDefault(key, List.of()));
    }

    /** The entry that counts when a key is repeated: the last one, as in wrktcp. */
    Optional<IniEntry> last(Section section, String key) {
        List<IniEntry> all = all(section, key);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    boolean has(Section section, String key) {
        return !all(section, key).isEmpty();
    }
}
