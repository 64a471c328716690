package io.tcpload.operator.docs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The few pieces of Markdown the documentation checks read: sections, tables, inline code, links
 * and heading anchors. Pure; only what the project's documents use (fenced code blocks, ATX
 * headings, pipe tables, inline links).
 */
final class Markdown {
    private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```[ \\t]*$");
    private static final Pattern HEADING = Pattern.compile("(?m)^(#{1,6})[ \\t]+(.+?)[ \\t]*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]\\n]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern LONG_FLAG = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9_-]*");

    private Markdown() {}

    /** The text with its fenced code blocks blanked out, so that their lines are never read. */
    static String prose(String text) {
        return FENCE.matcher(text).replaceAll("");
    }

    /**
     * The section that starts at the heading whose text is {@code heading} (as written, with its
     * hashes, e.g. {@code "## Flags"}), up to the next heading of the same or a higher level.
     *
     * @throws IllegalArgumentException when there is no such heading
     */
    static String section(String text, String heading) {
        String prose = prose(text);
        Matcher headings = HEADING.matcher(prose);
        int start = -1;
        int level = 0;
        while (headings.find()) {
            String written = headings.group(1) + " " + headings.group(2);
            if (start < 0 && written.equals(heading)) {
                start = headings.end();
                level = headings.group(1).length();
            } else if (start >= 0 && headings.group(1).length() <= level) {
                return prose.substring(start, headings.start());
            }
        }
        if (start < 0) {
            throw new IllegalArgumentException("no heading '" + heading + "'");
        }
        return prose.substring(start);
    }

    /**
     * The flags named in the first column of the section's tables: every word starting with {@code
     * -} inside inline code, e.g. {@code -t} and {@code --threads} from "`-t`, `--threads N`".
     */
    static Set<String> tableFlags(String section) {
        Set<String> flags = new LinkedHashSet<>();
        for (String line : section.split("\n")) {
            if (!line.startsWith("|") || line.startsWith("|---")) {
                continue;
            }
            String[] cells = line.split("\\|", -1);
            if (cells.length < 3) {
                continue;
            }
            for (String code : inlineCode(cells[1])) {
                for (String word : code.trim().split("\\s+")) {
                    if (word.startsWith("-")) {
                        flags.add(word.replaceAll("[,.]$", ""));
                    }
                }
            }
        }
        return flags;
    }

    /** The texts of the inline code spans, outside fenced blocks. */
    static List<String> inlineCode(String text) {
        List<String> spans = new ArrayList<>();
        Matcher code = INLINE_CODE.matcher(prose(text));
        while (code.find()) {
            spans.add(code.group(1));
        }
        return spans;
    }

    /** Every {@code --long-flag} written in inline code. */
    static Set<String> longFlagsInCode(String text) {
        Set<String> flags = new LinkedHashSet<>();
        for (String span : inlineCode(text)) {
            Matcher flag = LONG_FLAG.matcher(span);
            while (flag.find()) {
                flags.add(flag.group());
            }
        }
        return flags;
    }

    /** The targets of the inline links, outside fenced blocks, as written. */
    static List<String> linkTargets(String text) {
        List<String> targets = new ArrayList<>();
        Matcher link = LINK.matcher(prose(text));
        while (link.find()) {
            targets.add(link.group(1));
        }
        return targets;
    }

    /**
     * The anchors of the headings, as GitHub makes them: lower case, punctuation dropped, spaces as
     * hyphens, a repeated anchor numbered from 1.
     */
    static Set<String> anchors(String text) {
        Set<String> anchors = new LinkedHashSet<>();
        Matcher headings = HEADING.matcher(prose(text));
        while (headings.find()) {
            String slug =
                    headings.group(2)
                            .toLowerCase(Locale.ROOT)
                            .replaceAll("[^\\p{L}\\p{N} _-]", "")
                            .replace(' ', '-');
            String anchor = slug;
            for (int n = 1; !anchors.add(anchor); n++) {
                anchor = slug + "-" + n;
            }
        }
        return anchors;
    }
}
