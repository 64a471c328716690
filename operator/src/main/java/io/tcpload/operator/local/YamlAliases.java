package io.tcpload.operator.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.emitter.Emitter;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.events.SequenceStartEvent;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * A YAML text's aliases resolved as kubectl resolves them before it sends a file: an alias ({@code
 * *name}) stands for a copy of the value its anchor ({@code &name}) marks, and a merge key ({@code
 * <<: *base}) adds the fields of the maps it names that the map itself does not set. Jackson's tree
 * reading takes an alias for a string, its name, so that a file a cluster takes would run here with
 * other values. Pure.
 *
 * <p>The text is expanded at the level of YAML events and written again without anchors or aliases,
 * each value in its own style (plain, quoted, block), so that Jackson types every scalar as it
 * would have typed the original. A text without aliases is given back as it is.
 *
 * <p>Aliases can make a small text stand for a huge document ("a billion laughs": ten aliases of
 * ten aliases of ...). What they add is counted as they are replayed, in characters of the values
 * copied, and a text whose aliases add more than a bound is refused before the copies are made.
 */
final class YamlAliases {
    /** The merge key of YAML 1.1, which kubectl (go-yaml) applies. */
    static final String MERGE_KEY = "<<";

    private YamlAliases() {}

    /** Why a text's aliases cannot be resolved: a sentence with its line. */
    static final class AliasException extends Exception {
        private static final long serialVersionUID = 1L;

        AliasException(String message) {
            super(message, null, false, false);
        }
    }

    /** The events of one anchored value, without anchors or aliases, and their weight. */
    private static final class Recording {
        final String anchor;
        final List<Event> events = new ArrayList<>();
        long chars;
        int depth;

        Recording(String anchor) {
            this.anchor = anchor;
        }
    }

    /**
     * {@code text} with every alias replaced by its anchor's value and no anchors left, or {@code
     * text} itself when it has no alias.
     *
     * @param maxAddedChars how many characters the aliases of the whole text may add
     * @throws AliasException when an alias names no anchor before it, or the aliases add more than
     *     {@code maxAddedChars}
     * @throws org.yaml.snakeyaml.error.YAMLException when the text is not YAML
     */
    static String expand(String text, long maxAddedChars) throws AliasException {
        if (text.indexOf('*') < 0) {
            return text; // no alias can be written without one
        }
        ParserImpl parser = new ParserImpl(new StreamReader(text), new LoaderOptions());
        List<Event> out = new ArrayList<>();
        Deque<Recording> open = new ArrayDeque<>();
        Map<String, Recording> anchors = new HashMap<>();
        long added = 0;
        boolean anyAlias = false;
        while (parser.peekEvent() != null) {
            Event event = parser.getEvent();
            if (event instanceof AliasEvent alias) {
                anyAlias = true;
                String name = alias.getAnchor();
                int line = alias.getStartMark().getLine() + 1;
                Recording value = anchors.get(name);
                if (value == null) {
                    boolean inside = open.stream().anyMatch(r -> r.anchor.equals(name));
                    throw new AliasException(
                            "line "
                                    + line
                                    + ": alias *"
                                    + name
                                    + (inside
                                            ? " is inside the value its anchor &" + name + " marks"
                                            : " names no anchor &" + name + " before it"));
                }
                added += value.chars;
                if (added > maxAddedChars) {
                    throw new AliasException(
                            "line "
                                    + line
                                    + ": its aliases stand for more than "
                                    + maxAddedChars
                                    + " characters, more than a test file may hold; an alias is"
                                    + " for a value written once and used again, not for building"
                                    + " a large document");
                }
                for (Event copied : value.events) {
                    emit(copied, out, open);
                }
                continue;
            }
            Event plain = withoutAnchor(event);
            emit(plain, out, open);
            String anchor = event instanceof NodeEvent node ? node.getAnchor() : null;
            if (event instanceof MappingStartEvent || event instanceof SequenceStartEvent) {
                open.forEach(r -> r.depth++);
                if (anchor != null) {
                    Recording recording = new Recording(anchor);
                    recording.events.add(plain);
                    recording.chars = weight(plain);
                    recording.depth = 1;
                    open.push(recording);
                }
            } else if (event instanceof CollectionEndEvent) {
                open.forEach(r -> r.depth--);
                while (!open.isEmpty() && open.peek().depth == 0) {
                    Recording done = open.pop();
                    anchors.put(done.anchor, done);
                }
            } else if (anchor != null) {
                Recording scalar = new Recording(anchor);
                scalar.events.add(plain);
                scalar.chars = weight(plain);
                anchors.put(anchor, scalar);
            }
        }
        return anyAlias ? write(out) : text;
    }

    /**
     * Applies the merge keys of {@code node} and all within it: a map's {@code <<} field whose
     * value is a map, or a list of maps, is replaced by the fields of those maps that the map does
     * not set itself (of the maps listed, the first that sets a field gives it).
     */
    static JsonNode merge(JsonNode node) {
        if (node == null) {
            return null;
        }
        for (JsonNode child : node) {
            merge(child);
        }
        if (node instanceof ObjectNode object && mergeable(object.get(MERGE_KEY))) {
            JsonNode sources = object.remove(MERGE_KEY);
            for (JsonNode source : sources.isArray() ? sources : List.of(sources)) {
                for (Map.Entry<String, JsonNode> field : source.properties()) {
                    if (!object.has(field.getKey())) {
                        object.set(field.getKey(), field.getValue());
                    }
                }
            }
        }
        return node;
    }

    private static boolean mergeable(JsonNode value) {
        if (value == null) {
            return false;
        }
        if (value.isObject()) {
            return true;
        }
        if (!value.isArray() || value.isEmpty()) {
            return false;
        }
        for (JsonNode element : value) {
            if (!element.isObject()) {
                return false;
            }
        }
        return true;
    }

    private static void emit(Event event, List<Event> out, Deque<Recording> open) {
        out.add(event);
        long chars = weight(event);
        for (Recording recording : open) {
            recording.events.add(event);
            recording.chars += chars;
        }
    }

    /** What a copy of {@code event} adds: one for the event, and a scalar's characters. */
    private static long weight(Event event) {
        return 1 + (event instanceof ScalarEvent scalar ? scalar.getValue().length() : 0);
    }

    private static Event withoutAnchor(Event event) {
        if (event instanceof ScalarEvent s && s.getAnchor() != null) {
            return new ScalarEvent(
                    null,
                    s.getTag(),
                    s.getImplicit(),
                    s.getValue(),
                    s.getStartMark(),
                    s.getEndMark(),
                    s.getScalarStyle());
        }
        if (event instanceof MappingStartEvent m && m.getAnchor() != null) {
            return new MappingStartEvent(
                    null,
                    m.getTag(),
                    m.getImplicit(),
                    m.getStartMark(),
                    m.getEndMark(),
                    m.getFlowStyle());
        }
        if (event instanceof SequenceStartEvent s && s.getAnchor() != null) {
            return new SequenceStartEvent(
                    null,
                    s.getTag(),
                    s.getImplicit(),
                    s.getStartMark(),
                    s.getEndMark(),
                    s.getFlowStyle());
        }
        return event;
    }

    /** The events as YAML text, each scalar in its style, lines never folded. */
    private static String write(List<Event> events) {
        DumperOptions options = new DumperOptions();
        options.setSplitLines(false);
        options.setWidth(Integer.MAX_VALUE);
        options.setAllowUnicode(true);
        StringWriter text = new StringWriter();
        Emitter emitter = new Emitter(text, options);
        try {
            for (Event event : events) {
                emitter.emit(event);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return text.toString();
    }
}
