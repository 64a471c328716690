package io.tcpload.runner.profile;

import io.tcpload.runner.pem.Pem;
import io.tcpload.runner.profile.Section.Keys;
import io.tcpload.runner.profile.TlsSpec.PemFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Reads the TLS keys of {@code [common]}: {@code tls = true} turns TLS on, the others say how. The
 * certificate and key files are looked up through the {@link DataFileResolver}, as FILE data files
 * are, and checked here: a CA bundle and a client certificate must hold certificates, a key file
 * exactly one private key, and an encrypted key needs {@code tls_key_password_env}. The key is only
 * decrypted when the run builds its TLS context, where the variable is read.
 */
final class TlsSection {
    /** Far above any real certificate bundle; the system's whole trust store is about 200 KB. */
    static final long MAX_PEM_BYTES = 1024 * 1024;

    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern CIPHER = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Map<String, Boolean> BOOLEANS = Map.of("true", true, "false", false);

    private static final List<String> TLS_ONLY_KEYS =
            List.of(
                    Keys.TLS_SERVER_NAME,
                    Keys.TLS_CA,
                    Keys.TLS_CERT,
                    Keys.TLS_KEY,
                    Keys.TLS_KEY_PASSWORD_ENV,
                    Keys.TLS_VERIFY,
                    Keys.TLS_PROTOCOLS,
                    Keys.TLS_CIPHERS,
                    Keys.TLS_GROUPS,
                    Keys.TLS_SESSION_REUSE);

    private TlsSection() {}

    static Optional<TlsSpec> read(
            IniDocument document, DataFileResolver files, TlsFilesGiven given, Problems problems) {
        boolean enabled =
                document.last(Section.COMMON, Keys.TLS)
                        .flatMap(e -> Values.choice(e, BOOLEANS, problems))
                        .orElse(false);
        if (!enabled) {
            for (String key : TLS_ONLY_KEYS) {
                document.last(Section.COMMON, key)
                        .ifPresent(
                                e ->
                                        problems.error(
                                                e.line(),
                                                key,
                                                "needs 'tls = true' in [common]: without it"
                                                        + " connections are plain TCP."));
            }
            return Optional.empty();
        }
        Optional<String> serverName = serverName(document, problems);
        // Files given from outside are not looked up: where the profile runs its own paths may not
        // exist (a pod has the mounted Secret's instead).
        Optional<PemFile> ca =
                given.ca()
                        ? Optional.empty()
                        : pem(document, Keys.TLS_CA, "CA bundle", files, problems);
        ca.ifPresent(file -> certificates(document, Keys.TLS_CA, file, problems));
        Optional<PemFile> cert =
                given.clientCertificate()
                        ? Optional.empty()
                        : pem(document, Keys.TLS_CERT, "client certificate", files, problems);
        cert.ifPresent(file -> certificates(document, Keys.TLS_CERT, file, problems));
        Optional<PemFile> key =
                given.clientCertificate()
                        ? Optional.empty()
                        : pem(document, Keys.TLS_KEY, "client key", files, problems);
        Optional<String> passwordEnv = passwordEnv(document, problems);
        boolean encrypted = key.map(file -> keyEncrypted(document, file, problems)).orElse(false);
        pairing(document, passwordEnv, encrypted, problems);
        boolean verify = bool(document, Keys.TLS_VERIFY, true, problems);
        if (!verify) {
            problems.warn(
                    line(document, Keys.TLS_VERIFY),
                    Keys.TLS_VERIFY,
                    "is false: any server certificate is accepted, whoever it names and whoever"
                            + " signed it.");
        }
        return Optional.of(
                new TlsSpec(
                        serverName,
                        ca,
                        cert,
                        key,
                        passwordEnv,
                        verify,
                        protocols(document, problems),
                        ciphers(document, problems),
                        groups(document, problems),
                        bool(document, Keys.TLS_SESSION_REUSE, true, problems)));
    }

    private static Optional<String> serverName(IniDocument document, Problems problems) {
        Optional<IniEntry> entry = document.last(Section.COMMON, Keys.TLS_SERVER_NAME);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        String name = entry.get().value();
        Optional<String> problem = CommonSection.hostProblem(name);
        if (problem.isPresent() || name.startsWith("[")) {
            problems.error(
                    entry.get().line(),
                    Keys.TLS_SERVER_NAME,
                    problem.orElse("is a host name or an address, without brackets."));
            return Optional.empty();
        }
        return Optional.of(name);
    }

    private static Optional<PemFile> pem(
            IniDocument document,
            String key,
            String what,
            DataFileResolver files,
            Problems problems) {
        Optional<IniEntry> entry = document.last(Section.COMMON, key);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        if (entry.get().value().isEmpty()) {
            problems.error(entry.get().line(), key, "is empty; give the path of a PEM file.");
            return Optional.empty();
        }
        DataFileResolver.Lookup lookup = files.resolve(entry.get().value(), MAX_PEM_BYTES, what);
        if (lookup instanceof DataFileResolver.Refused refused) {
            problems.error(entry.get().line(), key, Values.sentence(refused.message()));
            return Optional.empty();
        }
        DataFileResolver.Found found = (DataFileResolver.Found) lookup;
        return Optional.of(new PemFile(found.source(), found.content()));
    }

    private static void certificates(
            IniDocument document, String key, PemFile file, Problems problems) {
        try {
            Pem.certificates(file.content().toByteArray());
        } catch (IllegalArgumentException e) {
            problems.error(line(document, key), key, file.source() + " " + e.getMessage() + ".");
        }
    }

    private static boolean keyEncrypted(IniDocument document, PemFile file, Problems problems) {
        try {
            Pem.Block block = Pem.keyBlock(file.content().toByteArray());
            return Pem.keyForm(block).encrypted(block);
        } catch (IllegalArgumentException e) {
            problems.error(
                    line(document, Keys.TLS_KEY),
                    Keys.TLS_KEY,
                    file.source() + " " + e.getMessage() + ".");
            return false;
        }
    }

    private static Optional<String> passwordEnv(IniDocument document, Problems problems) {
        Optional<IniEntry> entry = document.last(Section.COMMON, Keys.TLS_KEY_PASSWORD_ENV);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        if (!VARIABLE.matcher(entry.get().value()).matches()) {
            problems.error(
                    entry.get().line(),
                    Keys.TLS_KEY_PASSWORD_ENV,
                    "must name an environment variable (letters, digits, '_'), not "
                            + Values.quote(entry.get().value())
                            + ".");
            return Optional.empty();
        }
        return Optional.of(entry.get().value());
    }

    private static void pairing(
            IniDocument document,
            Optional<String> passwordEnv,
            boolean encrypted,
            Problems problems) {
        boolean hasCert = document.has(Section.COMMON, Keys.TLS_CERT);
        if (hasCert != document.has(Section.COMMON, Keys.TLS_KEY)) {
            String given = hasCert ? Keys.TLS_CERT : Keys.TLS_KEY;
            String missing = hasCert ? Keys.TLS_KEY : Keys.TLS_CERT;
            problems.error(
                    line(document, given),
                    given,
                    "needs " + missing + " too: a client certificate goes with its key.");
        }
        if (encrypted && passwordEnv.isEmpty()) {
            problems.error(
                    line(document, Keys.TLS_KEY),
                    Keys.TLS_KEY,
                    "is encrypted: name the environment variable holding its password with"
                            + " tls_key_password_env.");
        }
        if (passwordEnv.isPresent() && !document.has(Section.COMMON, Keys.TLS_KEY)) {
            problems.warn(
                    line(document, Keys.TLS_KEY_PASSWORD_ENV),
                    Keys.TLS_KEY_PASSWORD_ENV,
                    "is set without tls_key; it applies to a key given by --tls-key.");
        }
    }

    private static List<String> protocols(IniDocument document, Problems problems) {
        return names(
                document,
                Keys.TLS_PROTOCOLS,
                TlsSpec.PROTOCOLS::contains,
                " is not a TLS version; use "
                        + String.join(", ", TlsSpec.PROTOCOLS)
                        + ", separated by commas.",
                "is empty; name the versions (e.g. TLSv1.2,TLSv1.3) or leave it out.",
                problems);
    }

    private static List<String> ciphers(IniDocument document, Problems problems) {
        return names(
                document,
                Keys.TLS_CIPHERS,
                CIPHER.asMatchPredicate(),
                " is not a cipher suite name (e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256).",
                "is empty; name the suites or leave it out.",
                problems);
    }

    private static List<String> groups(IniDocument document, Problems problems) {
        return names(
                document,
                Keys.TLS_GROUPS,
                GROUP.asMatchPredicate(),
                " is not a key-exchange group name (e.g. X25519, P-256, X25519MLKEM768).",
                "is empty; name the groups (e.g. X25519, P-256) or leave it out.",
                problems);
    }

    /**
     * The names {@code key} lists, separated by commas (or colons, or blanks), each once, in their
     * order; one that is not {@code valid} is an error ending in {@code invalid}.
     */
    private static List<String> names(
            IniDocument document,
            String key,
            Predicate<String> valid,
            String invalid,
            String empty,
            Problems problems) {
        Optional<IniEntry> entry = document.last(Section.COMMON, key);
        if (entry.isEmpty()) {
            return List.of();
        }
        List<String> listed = list(entry.get());
        List<String> names = new ArrayList<>();
        for (String name : listed) {
            if (!valid.test(name)) {
                problems.error(entry.get().line(), key, Values.quote(name) + invalid);
            } else if (!names.contains(name)) {
                names.add(name);
            }
        }
        if (listed.isEmpty()) {
            problems.error(entry.get().line(), key, empty);
        }
        return names;
    }

    private static List<String> list(IniEntry entry) {
        List<String> items = new ArrayList<>();
        for (String item : entry.value().split("[,:\\s]+")) {
            if (!item.isEmpty()) {
                items.add(item);
            }
        }
        return items;
    }

    private static boolean bool(
            IniDocument document, String key, boolean fallback, Problems problems) {
        return document.last(Section.COMMON, key)
                .flatMap(e -> Values.choice(e, BOOLEANS, problems))
                .orElse(fallback);
    }

    private static int line(IniDocument document, String key) {
        return document.last(Section.COMMON, key).map(IniEntry::line).orElse(0);
    }
}
