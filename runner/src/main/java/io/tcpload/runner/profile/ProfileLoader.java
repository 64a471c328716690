package io.tcpload.runner.profile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads wrktcp INI profiles. Pure apart from reading the INI file and checking FILE data files.
 *
 * <p>Loading runs in stages, each reporting into one problem list so that a profile with several
 * mistakes gets them all at once: {@link IniLines} joins continued lines, {@link IniParser} sorts
 * entries into sections, then one reader per section ({@link CommonSection}, {@link
 * ParameterSection}, {@link RequestSection}, {@link ResponseSection}) checks and converts values.
 * Stateless and thread-safe.
 */
public final class ProfileLoader {
    /** Far above any real profile; stops a wrong path (a disk image, a log) from filling memory. */
    static final long MAX_FILE_BYTES = 16L * 1024 * 1024;

    private static final char BYTE_ORDER_MARK = '\uFEFF';

    private ProfileLoader() {}

    /**
     * Loads and validates a profile file.
     *
     * @throws ProfileException with every problem found, each with file, line and key
     */
    public static LoadedProfile load(Path file) throws ProfileException {
        return parse(read(file), file);
    }

    /**
     * Parses profile text; {@code file} names it in messages and anchors relative FILE paths.
     *
     * @throws ProfileException with every problem found, each with file, line and key
     */
    public static LoadedProfile parse(String text, Path file) throws ProfileException {
        Problems problems = new Problems(displayName(file));
        String content =
                !text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK ? text.substring(1) : text;
        IniDocument document = IniParser.parse(content, problems);
        CommonSection.Settings common = CommonSection.read(document, problems);
        ParameterSection.Parameters parameters =
                ParameterSection.read(document, folderOf(file), problems);
        RequestSpec request =
                RequestSection.read(document, common.httpLine(), parameters.declared(), problems);
        ResponseSpec response =
                ResponseSection.read(document, common.httpLine().isPresent(), problems);
        problems.throwIfErrors();
        Profile profile =
                new Profile(
                        file,
                        common.target().orElseThrow(),
                        common.keepAlive(),
                        request,
                        response,
                        parameters.specs());
        return new LoadedProfile(profile, problems.warnings());
    }

    private static String read(Path file) throws ProfileException {
        Problems problems = new Problems(displayName(file));
        String text = "";
        try {
            if (Files.isDirectory(file)) {
                problems.error(0, "", "is a folder, not a profile file.");
            } else if (Files.size(file) > MAX_FILE_BYTES) {
                problems.error(
                        0,
                        "",
                        "is "
                                + Files.size(file)
                                + " bytes; profiles larger than "
                                + MAX_FILE_BYTES
                                + " bytes are refused.");
            } else {
                text = decode(Files.readAllBytes(file), problems);
            }
        } catch (NoSuchFileException e) {
            problems.error(0, "", "the profile file does not exist.");
        } catch (IOException e) {
            problems.error(0, "", "the profile file cannot be read: " + e + ".");
        }
        problems.throwIfErrors();
        return text;
    }

    /**
     * Decodes strictly: request templates go on the wire as the file's bytes, so text that is not
     * UTF-8 must be refused rather than silently replaced.
     */
    private static String decode(byte[] bytes, Problems problems) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            problems.error(
                    firstBadLine(bytes),
                    "",
                    "the profile is not valid UTF-8 text; save it as UTF-8.");
            return "";
        }
    }

    /** The 1-based line holding the first byte that is not valid UTF-8. */
    private static int firstBadLine(byte[] bytes) {
        var decoder =
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                try {
                    decoder.reset().decode(ByteBuffer.wrap(bytes, lineStart, i - lineStart));
                } catch (CharacterCodingException e) {
                    return line;
                }
                line++;
                lineStart = i + 1;
            }
        }
        return 0;
    }

    private static String displayName(Path file) {
        return file == null ? "(profile text)" : file.toString();
    }

    private static Path folderOf(Path file) {
        return file == null ? null : file.toAbsolutePath().getParent();
    }
}
