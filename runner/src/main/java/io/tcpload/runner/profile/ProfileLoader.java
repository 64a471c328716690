package io.tcpload.runner.profile;

import io.tcpload.runner.files.BoundedRead;
import io.tcpload.runner.files.UnreadableFileException;
import io.tcpload.runner.format.ByteText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads wrktcp INI profiles. Pure apart from reading the INI file and what the {@link
 * DataFileResolver} does for FILE data files and TLS certificate and key files.
 *
 * <p>Loading runs in stages, each reporting into one problem list so that a profile with several
 * mistakes gets them all at once: {@link IniLines} joins continued lines, {@link IniParser} sorts
 * entries into sections, then one reader per section ({@link CommonSection}, {@link
 * ParameterSection}, {@link RequestSection}, {@link ResponseSection}, and {@link MixSection} for
 * the named requests of a transaction mix) checks and converts values. Stateless and thread-safe.
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
        return load(file, TlsFilesGiven.NONE);
    }

    /**
     * As {@link #load(Path)}, with the TLS files of {@code given} left out of the lookup: they come
     * from the command line.
     */
    public static LoadedProfile load(Path file, TlsFilesGiven given) throws ProfileException {
        return parse(read(file), file, DataFileResolver.besideProfile(file), given);
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
     * Parses a profile's bytes, in any encoding whose INI syntax is ASCII (UTF-8, GBK, Latin-1...):
     * templates, success codes and tags keep the file's bytes as they are. Pure apart from what
     * {@code dataFiles} does.
     *
     * @param file names the profile in messages; {@code null} when it is not a file
     * @param dataFiles gives the data of FILE parameters
     * @throws ProfileException with every problem found, each with file, line and key
     */
    public static LoadedProfile parse(byte[] content, Path file, DataFileResolver dataFiles)
            throws ProfileException {
        return parse(content, file, dataFiles, TlsFilesGiven.NONE);
    }

    /**
     * As {@link #parse(byte[], Path, DataFileResolver)}, with the TLS files of {@code given} left
     * out of the lookup (the profile's {@link TlsSpec} then holds none of them).
     */
    public static LoadedProfile parse(
            byte[] content, Path file, DataFileResolver dataFiles, TlsFilesGiven given)
            throws ProfileException {
        Problems problems = new Problems(displayName(file));
        String text = decode(content, problems);
        problems.throwIfErrors();
        IniDocument document = IniParser.parse(text, problems);
        CommonSection.Settings common = CommonSection.read(document, problems);
        Optional<TlsSpec> tls = TlsSection.read(document, dataFiles, given, problems);
        ParameterSection.Parameters parameters =
                ParameterSection.read(document, dataFiles, problems);
        boolean mixOnly =
                !document.named(Section.REQUEST).isEmpty() && !document.hasSection(Section.REQUEST);
        Set<String> usable = Correlations.usableNames(document, parameters.declared(), problems);
        RequestSpec request =
                mixOnly ? null : RequestSection.read(document, common.httpLine(), usable, problems);
        ResponseSpec response =
                ResponseSection.read(document, common.httpLine().isPresent(), problems);
        List<NamedRequest> mix =
                MixSection.read(document, common.httpLine(), usable, response, problems);
        if (!problems.hasErrors()) {
            Correlations.checkEchoes(request, response, mix, problems);
        }
        problems.throwIfErrors();
        Profile profile =
                new Profile(
                        file,
                        common.target().orElseThrow(),
                        common.keepAlive(),
                        mixOnly ? mix.get(0).request() : request,
                        response,
                        parameters.specs(),
                        tls,
                        mix);
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
     * The profile as text that keeps every byte ({@link ByteText}): wrktcp sends the file's bytes
     * as they are, in whatever encoding the file is, and so does tcpload.
     */
    private static String decode(byte[] content, Problems problems) {
        if (content.length >= 2
                && ((content[0] == (byte) 0xFF && content[1] == (byte) 0xFE)
                        || (content[0] == (byte) 0xFE && content[1] == (byte) 0xFF))) {
            // Every other byte would be a NUL: nothing in it could be read as wrktcp reads it.
            problems.error(
                    0,
                    "",
                    "the profile is UTF-16 text; save it in an encoding whose INI syntax is ASCII"
                            + " (UTF-8, GBK, Latin-1...), as wrktcp needs.");
            return "";
        }
        String text = ByteText.decode(content);
        return !text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK ? text.substring(1) : text;
    }

    private static String displayName(Path file) {
        return file == null ? "(profile text)" : file.toString();
    }
}
