package io.tcpload.runner.profile;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The entries of a profile, grouped by section in file order. The sections of fixed keys are also
 * indexed by key, so that looking a key up costs the same in a profile of a million lines; {@code
 * [parameters]}, whose keys are names chosen by the user, is only read in order. Built once by
 * {@link IniParser}.
 */
final class IniDocument {
    private final Map<Section, List<IniEntry>> entries = new EnumMap<>(Section.class);
    private final Map<Section, Map<String, List<IniEntry>>> byKey = new EnumMap<>(Section.class);

    void add(IniEntry entry) {
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
