package io.tcpload.runner.profile;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** The sections of a profile and the keys each one accepts (the key table of the loader). */
enum Section {
    COMMON(
            "common",
            List.of(
                    Keys.HOST,
                    Keys.PORT,
                    Keys.HTTP_LINE,
                    Keys.KEEPALIVE,
                    Keys.TLS,
                    Keys.TLS_SERVER_NAME,
                    Keys.TLS_CA,
                    Keys.TLS_CERT,
                    Keys.TLS_KEY,
                    Keys.TLS_KEY_PASSWORD_ENV,
                    Keys.TLS_VERIFY,
                    Keys.TLS_PROTOCOLS,
                    Keys.TLS_CIPHERS,
                    Keys.TLS_GROUPS,
                    Keys.TLS_SESSION_REUSE)),
    REQUEST(
            "request",
            List.of(
                    Keys.REQ_LEN_LEN,
                    Keys.REQ_LEN_TYPE,
                    Keys.REQ_HEAD,
                    Keys.REQ_BODY,
                    Keys.WEIGHT,
                    Keys.SIGN_ON)),
    RESPONSE(
            "response",
            List.of(
                    Keys.RSP_HEADLEN,
                    Keys.RSP_LEN_BEG,
                    Keys.RSP_LEN_LEN,
                    Keys.RSP_LEN_TYPE,
                    Keys.RSP_CODE_TYPE,
                    Keys.RSP_CODE_LOCATION,
                    Keys.RSP_CODE_LOCATION_TAG,
                    Keys.RSP_CODE_SUCCESS,
                    Keys.RSP_HTTP_STATUS,
                    Keys.MAX_RESPONSE_BYTES,
                    Keys.RSP_EXTRACT,
                    Keys.RSP_ECHO)),
    /** Its keys are parameter names chosen by the user. */
    PARAMETERS("parameters", List.of());

    /** The misspelling in wrktcp's English README, accepted with a warning. */
    static final String PARAMETERS_ALIAS = "paramters";

    private final String iniName;
    private final List<String> keys;

    Section(String iniName, List<String> keys) {
        this.iniName = iniName;
        this.keys = keys;
    }

    String iniName() {
        return iniName;
    }

    /** {@code [name]}, as written in a profile. */
    String header() {
        return "[" + iniName + "]";
    }

    List<String> keys() {
        return keys;
    }

    /** Whether the section may be named, {@code [request.NAME]}, for a transaction mix. */
    boolean nameable() {
        return this == REQUEST || this == RESPONSE;
    }

    boolean accepts(String key) {
        return this == PARAMETERS || keys.contains(key);
    }

    /** The section with this exact (case-sensitive) name. */
    static Optional<Section> named(String name) {
        return Arrays.stream(values()).filter(s -> s.iniName.equals(name)).findFirst();
    }

    /** The section, other than {@code except}, whose keys include {@code key}. */
    static Optional<Section> holding(String key, Section except) {
        return Arrays.stream(values())
                .filter(s -> s != except && s != PARAMETERS && s.keys.contains(key))
                .findFirst();
    }

    /** "[common], [request], [response], [parameters]" for messages. */
    static String headers() {
        return Arrays.stream(values()).map(Section::header).collect(Collectors.joining(", "));
    }

    /** The key names, as written in profiles. */
    static final class Keys {
        static final String HOST = "host";
        static final String PORT = "port";
        static final String HTTP_LINE = "http_line";
        static final String KEEPALIVE = "keepalive";
        static final String TLS = "tls";
        static final String TLS_SERVER_NAME = "tls_server_name";
        static final String TLS_CA = "tls_ca";
        static final String TLS_CERT = "tls_cert";
        static final String TLS_KEY = "tls_key";
        static final String TLS_KEY_PASSWORD_ENV = "tls_key_password_env";
        static final String TLS_VERIFY = "tls_verify";
        static final String TLS_PROTOCOLS = "tls_protocols";
        static final String TLS_CIPHERS = "tls_ciphers";
        static final String TLS_GROUPS = "tls_groups";
        static final String TLS_SESSION_REUSE = "tls_session_reuse";

        static final String REQ_LEN_LEN = "req_len_len";
        static final String REQ_LEN_TYPE = "req_len_type";
        static final String REQ_HEAD = "req_head";
        static final String REQ_BODY = "req_body";

        /** Ours: a named request's share of the transaction mix. */
        static final String WEIGHT = "weight";

        /** Ours: a named request sent once on each new connection, before the mix. */
        static final String SIGN_ON = "sign_on";

        static final String RSP_HEADLEN = "rsp_headlen";
        static final String RSP_LEN_BEG = "rsp_len_beg";
        static final String RSP_LEN_LEN = "rsp_len_len";
        static final String RSP_LEN_TYPE = "rsp_len_type";
        static final String RSP_CODE_TYPE = "rsp_code_type";
        static final String RSP_CODE_LOCATION = "rsp_code_location";
        static final String RSP_CODE_LOCATION_TAG = "rsp_code_location_tag";
        static final String RSP_CODE_SUCCESS = "rsp_code_success";
        static final String RSP_HTTP_STATUS = "rsp_http_status";
        static final String MAX_RESPONSE_BYTES = "max_response_bytes";

        /** Ours, repeatable: a value taken from the response into a connection's variable. */
        static final String RSP_EXTRACT = "rsp_extract";

        /** Ours, repeatable: a value of the response that must equal what the request sent. */
        static final String RSP_ECHO = "rsp_echo";

        /** The misspelling in wrktcp's English README, accepted with a warning. */
        static final String RSP_CODE_LOCATION_TAG_ALIAS = "rsp_code_localtion_tag";

        private Keys() {}
    }
}
