package io.tcpload.runner.profile;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The entries of a profile, grouped by section in file order. Built once by {@link IniParser}. */
final class IniDocument {
    private final Map<Section, List<IniEntry>> entries = new EnumMap<>(Section.class);

    void add(IniEntry entry) {
        entries.computeIfAbsent(entry.section(), s -> new ArrayList<>()).add(entry);
    }

    /** Every entry of the section, in file order. */
    List<IniEntry> entries(Section section) {
        return entries.getOrDefault(section, List.of());
    }

    /** Every entry of the key, in file order. */
    List<IniEntry> all(Section section, String key) {
        return entries(section).stream().filter(e -> e.key().equals(key)).toList();
    }

    /** The entry that counts when a key is repeated: the last one, as in wrktcp. */
    Optional<IniEntry> last(Section section, String key) {
        List<IniEntry> all = all(section, key);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    boolean has(Section section, String key) {
        return last(section, key).isPresent();
    }
}
