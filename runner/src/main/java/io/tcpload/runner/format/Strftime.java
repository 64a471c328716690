package io.tcpload.runner.format;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.IsoFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A C strftime format ({@code %Y%m%d %H:%M:%S}), compiled once and rendered in the process time
 * zone.
 *
 * <p>All C99/POSIX conversions are supported as the C ("POSIX") locale prints them: English day and
 * month names, {@code %c} = {@code %a %b %e %H:%M:%S %Y}, {@code %x} = {@code %m/%d/%y}, {@code %X}
 * = {@code %H:%M:%S}, {@code %p} = {@code AM}/{@code PM}. The {@code E} and {@code O} modifiers
 * ({@code %Ey}, {@code %OH}) are accepted and ignored, as the C locale does. Composite conversions
 * ({@code %D %F %r %R %T %c %x %X}) are expanded when compiling.
 *
 * <p>So are glibc's, which wrktcp's profiles may use since wrktcp calls glibc's strftime: {@code
 * %s} (seconds since the epoch), {@code %k} and {@code %l} (hours padded with a space), {@code %P}
 * ({@code am}/{@code pm}), and a single conversion's flags and width: {@code -} (no padding),
 * {@code _} (spaces), {@code 0} (zeros), {@code ^} (upper case), {@code #} (names in upper case,
 * {@code %#p} and {@code %#Z} in lower case), then a width ({@code %-d}, {@code %_H}, {@code
 * %010Y}). Numbers pad to the width with their own padding unless a flag says otherwise, names with
 * spaces.
 *
 * <p>Immutable and safe to share between threads. Rendering allocates; callers that render often
 * cache the bytes per second.
 */
public final class Strftime {

    private static final String[] SHORT_DAYS = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    private static final String[] LONG_DAYS = {
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"
    };
    private static final String[] SHORT_MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    };
    private static final String[] LONG_MONTHS = {
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December"
    };

    private static final DateTimeFormatter ZONE_ABBREVIATION =
            DateTimeFormatter.ofPattern("zzz", Locale.ENGLISH);

    private final String pattern;

    /**
     * The compiled pattern: a {@code String} is literal text, a {@code Character} is one simple
     * conversion letter, a {@link Flagged} one with glibc's flags or a width.
     */
    private final List<Object> segments;

    private Strftime(String pattern, List<Object> segments) {
        this.pattern = pattern;
        this.segments = List.copyOf(segments);
    }

    /**
     * Compiles a strftime format.
     *
     * @throws IllegalArgumentException with a plain sentence for an unknown conversion
     */
    public static Strftime compile(String format) {
        if (format == null) {
            throw new IllegalArgumentException("date/time format is missing");
        }
        List<Object> segments = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        int n = format.length();
        while (i < n) {
            char c = format.charAt(i++);
            if (c != '%') {
                literal.append(c);
                continue;
            }
            char flag = 0;
            while (i < n && "-_0^#".indexOf(format.charAt(i)) >= 0) {
                flag = format.charAt(i++); // as glibc, the last flag given counts
            }
            int width = 0;
            while (i < n && Character.isDigit(format.charAt(i))) {
                width = Math.min(MAX_WIDTH, width * 10 + (format.charAt(i++) - '0'));
            }
            if (i < n && (format.charAt(i) == 'E' || format.charAt(i) == 'O')) {
                i++; // locale modifiers mean nothing in the C locale
            }
            if (i >= n) {
                throw new IllegalArgumentException(
                        "date/time format '"
                                + format
                                + "' ends with a lone '%'; write %% for a percent sign");
            }
            char conversion = format.charAt(i++);
            String expansion = expansion(conversion);
            if (expansion == null) {
                throw new IllegalArgumentException(
                        "date/time format '"
                                + format
                                + "' has an unknown conversion '%"
                                + conversion
                                + "'");
            }
            if (flag != 0 || width > 0) {
                if (!expansion.equals("%" + conversion)) {
                    throw new IllegalArgumentException(
                            "date/time format '"
                                    + format
                                    + "' gives a flag or width to '%"
                                    + conversion
                                    + "', which takes none here; give them to its parts");
                }
                flushLiteral(literal, segments);
                segments.add(new Flagged(conversion, flag, width));
                continue;
            }
            for (int k = 0; k < expansion.length(); k++) {
                char e = expansion.charAt(k);
                if (e != '%') {
                    literal.append(e);
                } else if (expansion.charAt(++k) == '%') {
                    literal.append('%');
                } else {
                    flushLiteral(literal, segments);
                    segments.add(expansion.charAt(k));
                }
            }
        }
        flushLiteral(literal, segments);
        return new Strftime(format, segments);
    }

    /**
     * What one conversion stands for: itself for simple ones, its definition for composites, the
     * character for literal ones, or null when unknown.
     */
    private static String expansion(char conversion) {
        return switch (conversion) {
            case 'a',
                    'A',
                    'b',
                    'B',
                    'C',
                    'd',
                    'e',
                    'g',
                    'G',
                    'H',
                    'I',
                    'j',
                    'm',
                    'M',
                    'p',
                    'S',
                    'u',
                    'U',
                    'V',
                    'w',
                    'W',
                    'y',
                    'Y',
                    'z',
                    'Z',
                    's',
                    'k',
                    'l',
                    'P' ->
                    "%" + conversion;
            case 'h' -> "%b";
            case 'c' -> "%a %b %e %H:%M:%S %Y";
            case 'D', 'x' -> "%m/%d/%y";
            case 'F' -> "%Y-%m-%d";
            case 'r' -> "%I:%M:%S %p";
            case 'R' -> "%H:%M";
            case 'T', 'X' -> "%H:%M:%S";
            case 'n' -> "\n";
            case 't' -> "\t";
            case '%' -> "%%";
            default -> null;
        };
    }

    private static void flushLiteral(StringBuilder literal, List<Object> segments) {
        if (!literal.isEmpty()) {
            segments.add(literal.toString());
            literal.setLength(0);
        }
    }

    /** Renders an epoch second in the process default time zone (so {@code TZ} is respected). */
    public byte[] render(long epochSecond) {
        return render(epochSecond, ZoneId.systemDefault());
    }

    /** Renders an epoch second in the given time zone. */
    public byte[] render(long epochSecond, ZoneId zone) {
        return ByteText.encode(format(epochSecond, zone));
    }

    /** The rendered text of an epoch second in the given time zone. */
    public String format(long epochSecond, ZoneId zone) {
        ZonedDateTime t = Instant.ofEpochSecond(epochSecond).atZone(zone);
        StringBuilder out = new StringBuilder(32);
        for (Object segment : segments) {
            if (segment instanceof Character conversion) {
                append(out, conversion, t);
            } else if (segment instanceof Flagged flagged) {
                flagged.append(out, t);
            } else {
                out.append((String) segment);
            }
        }
        return out.toString();
    }

    private static void append(StringBuilder out, char conversion, ZonedDateTime t) {
        int weekdayFromSunday = t.getDayOfWeek().getValue() % 7;
        int dayOfYearFromZero = t.getDayOfYear() - 1;
        switch (conversion) {
            case 'a' -> out.append(SHORT_DAYS[weekdayFromSunday]);
            case 'A' -> out.append(LONG_DAYS[weekdayFromSunday]);
            case 'b' -> out.append(SHORT_MONTHS[t.getMonthValue() - 1]);
            case 'B' -> out.append(LONG_MONTHS[t.getMonthValue() - 1]);
            case 'C' -> pad(out, Math.floorDiv(t.getYear(), 100), 2, '0');
            case 'd' -> pad(out, t.getDayOfMonth(), 2, '0');
            case 'e' -> pad(out, t.getDayOfMonth(), 2, ' ');
            case 'g' -> pad(out, Math.floorMod(t.get(IsoFields.WEEK_BASED_YEAR), 100), 2, '0');
            case 'G' -> pad(out, t.get(IsoFields.WEEK_BASED_YEAR), 4, '0');
            case 'H' -> pad(out, t.getHour(), 2, '0');
            case 'I' -> pad(out, (t.getHour() + 11) % 12 + 1, 2, '0');
            case 'j' -> pad(out, t.getDayOfYear(), 3, '0');
            case 'm' -> pad(out, t.getMonthValue(), 2, '0');
            case 'M' -> pad(out, t.getMinute(), 2, '0');
            case 'p' -> out.append(t.getHour() < 12 ? "AM" : "PM");
            case 'S' -> pad(out, t.getSecond(), 2, '0');
            case 'u' -> out.append(t.getDayOfWeek().getValue());
            case 'U' -> pad(out, (dayOfYearFromZero + 7 - weekdayFromSunday) / 7, 2, '0');
            case 'V' -> pad(out, t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, '0');
            case 'w' -> out.append(weekdayFromSunday);
            case 'W' -> {
                int weekdayFromMonday = t.getDayOfWeek().getValue() - DayOfWeek.MONDAY.getValue();
                pad(out, (dayOfYearFromZero + 7 - weekdayFromMonday) / 7, 2, '0');
            }
            case 'y' -> pad(out, Math.floorMod(t.getYear(), 100), 2, '0');
            case 'Y' -> pad(out, t.getYear(), 4, '0');
            case 'z' -> {
                int offsetMinutes = t.getOffset().getTotalSeconds() / 60;
                out.append(offsetMinutes < 0 ? '-' : '+');
                pad(out, Math.abs(offsetMinutes) / 60, 2, '0');
                pad(out, Math.abs(offsetMinutes) % 60, 2, '0');
            }
            case 'Z' -> appendZoneAbbreviation(out, t);
            case 's' -> out.append(t.toEpochSecond());
            case 'k' -> pad(out, t.getHour(), 2, ' ');
            case 'l' -> pad(out, (t.getHour() + 11) % 12 + 1, 2, ' ');
            case 'P' -> out.append(t.getHour() < 12 ? "am" : "pm");
            default -> throw new IllegalStateException("uncompiled conversion %" + conversion);
        }
    }

    /** The longest width a conversion may ask for: more is glibc's too, and only wastes bytes. */
    private static final int MAX_WIDTH = 64;

    /** The conversions that print a number, padded by default to their usual width. */
    private static final String NUMBERS = "CdegGHIjklmMSsuUVwWyY";

    /**
     * One simple conversion with glibc's flag ({@code 0} for none) and width ({@code 0} for the
     * conversion's own), rendered as its default text and then re-padded or re-cased.
     */
    private record Flagged(char conversion, char flag, int width) {
        void append(StringBuilder out, ZonedDateTime t) {
            StringBuilder plain = new StringBuilder(16);
            Strftime.append(plain, conversion, t);
            if (NUMBERS.indexOf(conversion) >= 0) {
                appendNumber(out, plain);
            } else {
                appendName(out, plain);
            }
        }

        private void appendNumber(StringBuilder out, StringBuilder plain) {
            int digitsFrom = 0;
            boolean negative = plain.charAt(0) == '-';
            if (negative) {
                digitsFrom = 1;
            }
            while (digitsFrom < plain.length() - 1
                    && (plain.charAt(digitsFrom) == '0' || plain.charAt(digitsFrom) == ' ')) {
                digitsFrom++;
            }
            String digits = plain.substring(digitsFrom);
            if (flag == '-') {
                out.append(negative ? "-" : "").append(digits);
                return;
            }
            char padding =
                    flag == '_'
                            ? ' '
                            : flag == '0' ? '0' : "ekl".indexOf(conversion) >= 0 ? ' ' : '0';
            int wanted = Math.max(width, plain.length());
            int length = digits.length() + (negative ? 1 : 0);
            if (negative && padding == '0') {
                out.append('-');
            }
            for (int i = length; i < wanted; i++) {
                out.append(padding);
            }
            if (negative && padding != '0') {
                out.append('-');
            }
            out.append(digits);
        }

        private void appendName(StringBuilder out, StringBuilder plain) {
            String text = plain.toString();
            if (flag == '^') {
                text = text.toUpperCase(Locale.ROOT);
            } else if (flag == '#') {
                text =
                        conversion == 'p' || conversion == 'Z'
                                ? text.toLowerCase(Locale.ROOT)
                                : text.toUpperCase(Locale.ROOT);
            }
            char padding = flag == '0' ? '0' : ' ';
            for (int i = text.length(); i < width && flag != '-'; i++) {
                out.append(padding);
            }
            out.append(text);
        }
    }

    private static void appendZoneAbbreviation(StringBuilder out, ZonedDateTime t) {
        String name = ZONE_ABBREVIATION.format(t);
        // The wire is ASCII; a localized zone name would not be.
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            out.append(c < 0x80 ? c : '?');
        }
    }

    private static void pad(StringBuilder out, int value, int digits, char padding) {
        if (value < 0) {
            out.append('-');
            value = -value;
            digits--;
        }
        String text = Integer.toString(value);
        for (int i = text.length(); i < digits; i++) {
            out.append(padding);
        }
        out.append(text);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Strftime other && pattern.equals(other.pattern);
    }

    @Override
    public int hashCode() {
        return pattern.hashCode();
    }

    /** The format as written. */
    @Override
    public String toString() {
        return pattern;
    }
}
