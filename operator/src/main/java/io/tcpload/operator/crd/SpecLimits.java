package io.tcpload.operator.crd;

/**
 * The sizes of tcpload's own strings, lists and maps in the spec: the CRD's {@code maxLength},
 * {@code maxItems} and {@code maxProperties}, and the operator's validator refuses the same (the
 * operator's tests run against an API server without schema checks). The numeric limits of the load
 * itself are the runner's, in {@link io.tcpload.runner.contract.RunnerLimits}.
 *
 * <p>Every string, list and map a CEL rule can reach must be bounded, or the API server's cost
 * estimate of the rule is unbounded; the bounds are far above what a test needs.
 */
public final class SpecLimits {
    /**
     * The inline profile and the inline data files together, in bytes (UTF-8). Client-side {@code
     * kubectl apply} copies the whole object into an annotation, and all the annotations of an
     * object share 256 KiB: 200 KiB leaves room for the rest of the object.
     */
    public static final int INLINE_BYTES_MAX = 200 * 1024;

    /**
     * One inline text (the profile, or one file's content), in characters: the CRD can only count
     * characters, and no one text may be larger than the sum allowed in bytes.
     */
    public static final int INLINE_TEXT_MAX = INLINE_BYTES_MAX;

    /** Names of objects in the namespace (ConfigMaps, service accounts, priority classes). */
    public static final int OBJECT_NAME_MAX = 253;

    /** A ConfigMap key, and so a data file's name. */
    public static final int KEY_MAX = 253;

    /** A ConfigMap's name: a DNS subdomain. */
    public static final String OBJECT_NAME_PATTERN =
            "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

    /** A ConfigMap key: letters, digits, '-', '_', '.'. */
    public static final String KEY_PATTERN = "^[-._a-zA-Z0-9]+$";

    /** A data file's name: a ConfigMap key, and not only dots (not {@code .} or {@code ..}). */
    public static final String FILE_NAME_PATTERN = "^[-._a-zA-Z0-9]*[-_a-zA-Z0-9][-._a-zA-Z0-9]*$";

    /** A host name or address: no blanks. */
    public static final String HOST_PATTERN = "^[^ \\t\\r\\n]+$";

    /** Data files of one test. */
    public static final int FILES_MAX = 64;

    /** A host name or IP address (a DNS name is at most 253 characters). */
    public static final int HOST_MAX = 253;

    /** A duration such as {@code 30s}: 30 days in milliseconds has ten digits. */
    public static final int DURATION_MAX = 20;

    /** Thresholds of one test. */
    public static final int THRESHOLDS_MAX = 100;

    /** One threshold, such as {@code p99{request=transfer} < 200ms}. */
    public static final int THRESHOLD_MAX = 200;

    /** An image reference, registry, repository, tag and digest together. */
    public static final int IMAGE_MAX = 1024;

    /** Entries of the runner pods' node selector, labels or annotations. */
    public static final int POD_MAP_ENTRIES_MAX = 64;

    /** A label value (Kubernetes' own limit), as node selectors and labels take. */
    public static final int LABEL_VALUE_MAX = 63;

    /** One annotation value of the runner pods. */
    public static final int ANNOTATION_VALUE_MAX = 4096;

    /**
     * Items of each of the runner pods' lists of Kubernetes' own types that the spec adds (envFrom,
     * volumes, volume mounts, topology spread constraints): far above what a test needs. It bounds
     * the lists, not what their items hold, which the CRD generator cannot bound.
     */
    public static final int POD_LIST_ITEMS_MAX = 64;

    /** Init containers of the runner pods. */
    public static final int INIT_CONTAINERS_MAX = 16;

    /**
     * The runner pods' grace period after SIGTERM, in seconds. A runner stops its load at once and
     * waits at most 15 s for its report; an hour leaves room for a native sidecar to drain and
     * catches a value given in milliseconds by mistake.
     */
    public static final int TERMINATION_GRACE_SECONDS_MAX = 3600;

    /** A host name: a DNS label, as the runner pods' host names must be. */
    public static final int HOST_NAME_MAX = 63;

    /**
     * The longest test name whose runner pods' host names, {@code NAME-runners-INDEX} (the Job
     * controller names an Indexed Job's pods' hosts {@code JOB-INDEX}, and the Job is {@code
     * NAME-runners}), fit {@link #HOST_NAME_MAX} with one runner (index 0); each further digit of
     * the highest index takes one more: 52 up to 100 runners, 51 up to 1,000.
     */
    public static final int TEST_NAME_MAX = HOST_NAME_MAX - 9 - 1;

    private SpecLimits() {}
}
