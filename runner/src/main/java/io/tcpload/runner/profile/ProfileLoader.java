package io.tcpload.runner.profile;

import io.tcpload.runner.files.BoundedRead;
import io.tcpload.runner.files.UnreadableFileException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads wrktcp INI profiles. Pure apart from reading the INI file and what the {@link
 * DataFileResolver} does for FILE data files.
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
     * Loads and validates a profile file; FILE paths are looked for beside it, then in the working
     * folder ({@link DataFileResolver#besideProfile}).
     *
     * @throws ProfileException with every problem found, each with file, line and key
     */
    public static LoadedProfile load(Path file) throws ProfileException {
        return parse(read(file), file, DataFileResolver.besideProfile(file));
    }

    /**
     * Parses profile text given as UTF-8; FILE paths are looked for on disk beside {@code file},
     * then in the working folder.
     *
     * @throws ProfileException with every problem found, each with file, line and key
     */
    public static LoadedProfile parse(String text, Path file) throws ProfileException {
        return parse(
                text.getBytes(StandardCharsets.UTF_8), file, DataFileResolver.besideProfile(file));
    }

    /**
     * Parses a profile's bytes. Pure apart from what {@code dataFiles} does.
     *
     * @param file names the profile in messages; {@code null} when it is not a file
     * @param dataFiles gives the data of FILE parameters
     * @throws ProfileException with every problem found, each with file, line and key
     */
    public static LoadedProfile parse(byte[] content, Path file, DataFileResolver dataFiles)
            throws ProfileException {
        Problems problems = new Problems(displayName(file));
        String text = decode(content, problems);
        problems.throwIfErrors();
        if (!text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK) {
            text = text.substring(1);
        }
        IniDocument document = IniParser.parse(text, problems);
        CommonSection.Settings common = CommonSection.read(document, problems);
        ParameterSection.Parameters parameters =
                ParameterSection.read(document, dataFiles, problems);
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

    /** The file's bytes, read with a cap that holds for devices and FIFOs too. */
    private static byte[] read(Path file) throws ProfileException {
        try {
            return BoundedRead.readAtMost(file, MAX_FILE_BYTES, "profile file");
        } catch (UnreadableFileException e) {
            throw new ProfileException(
                    List.of(new ProfileProblem(displayName(file), 0, "", e.withoutPath())));
        }
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
}
