package io.tcpload.operator.crd;

import io.tcpload.runner.contract.RunnerLimits;

/**
 * The CRD's CEL rules ({@code x-kubernetes-validations}), with which the API server refuses a bad
 * spec at {@code kubectl apply}, before anything is stored. The operator's validator refuses the
 * same specs (the operator's tests run against an API server without schema checks or CEL).
 *
 * <p>The API server estimates the cost of every rule from the schema and refuses a CRD whose rules
 * could cost too much: each rule here reaches only fields whose strings, lists and maps are bounded
 * ({@link SpecLimits}), never Kubernetes' own embedded types (volumes, resources, affinity,
 * tolerations, env), which the CRD generator cannot bound. A test walks the committed CRD to hold
 * every rule to that.
 *
 * <p>Rules use only standard CEL (macros, {@code has}, {@code size}, {@code string}, {@code
 * contains}), which every Kubernetes version from 1.29 evaluates, and test presence with {@code
 * has} before reading an optional field.
 */
public final class SpecRules {
    /** At the root: every test has a spec. */
    public static final String HAS_SPEC = "has(self.spec)";

    public static final String HAS_SPEC_MESSAGE =
            "spec is missing: a TcpLoadTest needs a profile and a duration or stages.";

    /**
     * At the root: the test's name can name its runner pods' hosts, {@code NAME-runners-INDEX}, a
     * DNS label (no dots). Object names already are DNS subdomains (lowercase letters, digits, '-',
     * '.'), so without dots they are labels.
     */
    public static final String NAME_HAS_NO_DOT = "!self.metadata.name.contains('.')";

    public static final String NAME_HAS_NO_DOT_MESSAGE =
            "metadata.name must not contain '.': the runner pods' host names, NAME-runners-INDEX,"
                    + " are DNS labels.";

    /**
     * At the root: {@code NAME-runners-INDEX} is at most 63 characters for the highest index,
     * {@code runners - 1}. (The Job, {@code NAME-runners}, is shorter still.)
     */
    public static final String NAME_LENGTH =
            "!has(self.spec) || size(self.metadata.name) + size(string(self.spec.runners - 1)) <= "
                    + (SpecLimits.TEST_NAME_MAX + 1);

    public static final String NAME_LENGTH_MESSAGE =
            "metadata.name is too long: the runner pods' host names, NAME-runners-INDEX, are at most"
                    + " 63 characters, so a name is at most "
                    + SpecLimits.TEST_NAME_MAX
                    + " characters with up to 10 runners, "
                    + (SpecLimits.TEST_NAME_MAX - 1)
                    + " with up to 100 and "
                    + (SpecLimits.TEST_NAME_MAX - 2)
                    + " with more.";

    /**
     * On spec: exactly one profile source. A list of presences with {@code exists_one}, so that a
     * further source is one more element.
     */
    public static final String ONE_PROFILE =
            "[has(self.profile), has(self.profileFrom)].exists_one(x, x)";

    public static final String ONE_PROFILE_MESSAGE =
            "give either profile (the INI text) or profileFrom (a ConfigMap or Secret key), not both.";

    /**
     * On spec: a fixed duration or a rate schedule (an empty schedule counts as none), never both;
     * a dry run, which sends each request once, may give neither, and a capacity search chooses its
     * steps.
     */
    public static final String DURATION_OR_STAGES =
            "has(self.search) || has(self.duration) != (has(self.stages) && size(self.stages) > 0)"
                    + " || (has(self.dryRun) && self.dryRun && !has(self.duration)"
                    + " && !(has(self.stages) && size(self.stages) > 0))";

    public static final String DURATION_OR_STAGES_MESSAGE =
            "give either duration or stages (or search; a dry run may give neither).";

    /** On spec: a capacity search chooses each step's rate and length itself. */
    public static final String SEARCH_ALONE =
            "!has(self.search) || (!has(self.duration) && !has(self.rate) && !(has(self.stages)"
                    + " && size(self.stages) > 0))";

    public static final String SEARCH_ALONE_MESSAGE =
            "search chooses each step's rate and length itself: leave out duration, rate and"
                    + " stages.";

    /** On spec: every runner gets a share of the search's lowest rate. */
    public static final String SEARCH_SHARED =
            "!has(self.search) || self.search.minRate >= self.runners";

    public static final String SEARCH_SHARED_MESSAGE =
            "search.minRate must be at least the number of runners, so that every runner gets a"
                    + " share.";

    /** On spec.search: a range to search. */
    public static final String SEARCH_RANGE = "self.minRate < self.maxRate";

    public static final String SEARCH_RANGE_MESSAGE = "minRate must be below maxRate.";

    /** On spec: every event loop of every runner has a connection. */
    public static final String CONNECTIONS_COVER_LOOPS =
            "self.connections >= self.runners * self.threads";

    public static final String CONNECTIONS_COVER_LOOPS_MESSAGE =
            "connections must be at least runners x threads, so that every event loop of every"
                    + " runner has a connection.";

    /** On spec: no runner is asked for more connections than one runner opens. */
    public static final String CONNECTIONS_PER_RUNNER =
            "self.connections <= self.runners * " + RunnerLimits.CONNECTIONS_MAX;

    public static final String CONNECTIONS_PER_RUNNER_MESSAGE =
            "connections must be at most runners x "
                    + RunnerLimits.CONNECTIONS_MAX
                    + ": one runner opens at most "
                    + RunnerLimits.CONNECTIONS_MAX
                    + "; add runners.";

    /** On spec: every runner gets a share of the rate. */
    public static final String RATE_SHARED = "!has(self.rate) || self.rate >= self.runners";

    public static final String RATE_SHARED_MESSAGE =
            "rate must be at least the number of runners, so that every runner gets a share.";

    /** On spec: showing a dry run's masked values is for a dry run. */
    public static final String SHOW_VALUES_IN_DRY_RUN =
            "!has(self.dryRunShowValues) || !self.dryRunShowValues"
                    + " || (has(self.dryRun) && self.dryRun)";

    public static final String SHOW_VALUES_IN_DRY_RUN_MESSAGE =
            "dryRunShowValues is for a dry run: set dryRun: true, or leave dryRunShowValues out.";

    /** On a data file: exactly one source of its text. */
    public static final String ONE_FILE_SOURCE =
            "[has(self.content), has(self.configMapKeyRef), has(self.secretKeyRef)]"
                    + ".exists_one(x, x)";

    public static final String ONE_FILE_SOURCE_MESSAGE =
            "give one of content, configMapKeyRef and secretKeyRef.";

    /** A file from one key: a ConfigMap's or a Secret's. */
    public static final String ONE_KEY_SOURCE =
            "[has(self.configMapKeyRef), has(self.secretKeyRef)].exists_one(x, x)";

    public static final String ONE_KEY_SOURCE_MESSAGE =
            "give one of configMapKeyRef and secretKeyRef.";

    /** spec.tls names a client certificate, a CA bundle or both. */
    public static final String TLS_SOMETHING = "has(self.clientCertificate) || has(self.ca)";

    public static final String TLS_SOMETHING_MESSAGE = "give clientCertificate, ca or both.";

    /** A profile source names one thing: a ConfigMap (in either form) or a Secret. */
    public static final String ONE_PROFILE_SOURCE =
            "[has(self.name) || has(self.key), has(self.configMapKeyRef), has(self.secretKeyRef)]"
                    + ".exists_one(x, x) && (has(self.name) == has(self.key))";

    public static final String ONE_PROFILE_SOURCE_MESSAGE =
            "give one of configMapKeyRef, secretKeyRef, or a ConfigMap's name and key.";

    /** On a data file: the profile's own file name is taken. */
    public static final String NOT_THE_PROFILE = "self.name != 'profile.ini'";

    public static final String NOT_THE_PROFILE_MESSAGE = "'profile.ini' is the profile's own name.";

    /**
     * On the list of data files: each name once. Quadratic, over at most {@link
     * SpecLimits#FILES_MAX} files.
     */
    public static final String FILE_NAMES_UNIQUE =
            "self.all(f, self.exists_one(g, g.name == f.name))";

    public static final String FILE_NAMES_UNIQUE_MESSAGE = "each file name must be given once.";

    /**
     * On spec, a transition rule: nothing of tcpload's own in the spec changes once created.
     *
     * <p>Not {@code self == oldSelf}. The API server estimates an equality at the size of its
     * smaller operand, from its {@code maxItems}, {@code maxLength} or {@code maxProperties} (a
     * whole request's worth where absent), counting a list's items or a map's entries but not what
     * they hold, and an object of fixed fields at nothing. So {@code self == oldSelf} on spec would
     * pass the estimate while comparing, deep inside, the lists and strings of Kubernetes' own
     * types (resources, affinity, tolerations, env, image pull secrets, envFrom, volumes, volume
     * mounts, init containers, the two security contexts, topology spread constraints), which the
     * CRD generator cannot bound: a cost that no bound limits ({@link SpecLimits} bounds some of
     * those lists, never what their items hold). Each of tcpload's own fields, all bounded, is
     * compared instead, its presence too (adding an absent field is a change; {@code runner} itself
     * may come and go, its fields count). Those twelve are left out here and still refused by the
     * operator, which runs the spec it accepted first and reports a later one in the SpecAccepted
     * condition. A test fails when a field of the spec is neither compared nor left out by name.
     */
    public static final String IMMUTABLE =
            "(has(self.profile) == has(oldSelf.profile) && (!has(self.profile) || self.profile == oldSelf.profile)) && "
                    + "(has(self.profileFrom) == has(oldSelf.profileFrom) && (!has(self.profileFrom) || self.profileFrom == oldSelf.profileFrom)) && "
                    + "(has(self.files) == has(oldSelf.files) && (!has(self.files) || self.files == oldSelf.files)) && "
                    + "(has(self.target) == has(oldSelf.target) && (!has(self.target) || self.target == oldSelf.target)) && "
                    + "(has(self.tls) == has(oldSelf.tls) && (!has(self.tls) || self.tls == oldSelf.tls)) && "
                    + "(has(self.dryRun) == has(oldSelf.dryRun) && (!has(self.dryRun) || self.dryRun == oldSelf.dryRun)) && "
                    + "(has(self.dryRunShowValues) == has(oldSelf.dryRunShowValues) && (!has(self.dryRunShowValues) || self.dryRunShowValues == oldSelf.dryRunShowValues)) && "
                    + "(has(self.search) == has(oldSelf.search) && (!has(self.search) || self.search == oldSelf.search)) && "
                    + "(has(self.threads) == has(oldSelf.threads) && (!has(self.threads) || self.threads == oldSelf.threads)) && "
                    + "(has(self.connections) == has(oldSelf.connections) && (!has(self.connections) || self.connections == oldSelf.connections)) && "
                    + "(has(self.duration) == has(oldSelf.duration) && (!has(self.duration) || self.duration == oldSelf.duration)) && "
                    + "(has(self.timeout) == has(oldSelf.timeout) && (!has(self.timeout) || self.timeout == oldSelf.timeout)) && "
                    + "(has(self.keepAlive) == has(oldSelf.keepAlive) && (!has(self.keepAlive) || self.keepAlive == oldSelf.keepAlive)) && "
                    + "(has(self.rate) == has(oldSelf.rate) && (!has(self.rate) || self.rate == oldSelf.rate)) && "
                    + "(has(self.stages) == has(oldSelf.stages) && (!has(self.stages) || self.stages == oldSelf.stages)) && "
                    + "(has(self.runners) == has(oldSelf.runners) && (!has(self.runners) || self.runners == oldSelf.runners)) && "
                    + "(has(self.thresholds) == has(oldSelf.thresholds) && (!has(self.thresholds) || self.thresholds == oldSelf.thresholds)) && "
                    + "(has(self.startTimeoutSeconds) == has(oldSelf.startTimeoutSeconds) && (!has(self.startTimeoutSeconds) || self.startTimeoutSeconds == oldSelf.startTimeoutSeconds)) && "
                    + "(has(self.ttlSecondsAfterFinished) == has(oldSelf.ttlSecondsAfterFinished) && (!has(self.ttlSecondsAfterFinished) || self.ttlSecondsAfterFinished == oldSelf.ttlSecondsAfterFinished)) && "
                    + "((has(self.runner) && has(self.runner.image)) == (has(oldSelf.runner) && has(oldSelf.runner.image)) && (!(has(self.runner) && has(self.runner.image)) || self.runner.image == oldSelf.runner.image)) && "
                    + "((has(self.runner) && has(self.runner.imagePullPolicy)) == (has(oldSelf.runner) && has(oldSelf.runner.imagePullPolicy)) && (!(has(self.runner) && has(self.runner.imagePullPolicy)) || self.runner.imagePullPolicy == oldSelf.runner.imagePullPolicy)) && "
                    + "((has(self.runner) && has(self.runner.nodeSelector)) == (has(oldSelf.runner) && has(oldSelf.runner.nodeSelector)) && (!(has(self.runner) && has(self.runner.nodeSelector)) || self.runner.nodeSelector == oldSelf.runner.nodeSelector)) && "
                    + "((has(self.runner) && has(self.runner.serviceAccountName)) == (has(oldSelf.runner) && has(oldSelf.runner.serviceAccountName)) && (!(has(self.runner) && has(self.runner.serviceAccountName)) || self.runner.serviceAccountName == oldSelf.runner.serviceAccountName)) && "
                    + "((has(self.runner) && has(self.runner.labels)) == (has(oldSelf.runner) && has(oldSelf.runner.labels)) && (!(has(self.runner) && has(self.runner.labels)) || self.runner.labels == oldSelf.runner.labels)) && "
                    + "((has(self.runner) && has(self.runner.annotations)) == (has(oldSelf.runner) && has(oldSelf.runner.annotations)) && (!(has(self.runner) && has(self.runner.annotations)) || self.runner.annotations == oldSelf.runner.annotations)) && "
                    + "((has(self.runner) && has(self.runner.priorityClassName)) == (has(oldSelf.runner) && has(oldSelf.runner.priorityClassName)) && (!(has(self.runner) && has(self.runner.priorityClassName)) || self.runner.priorityClassName == oldSelf.runner.priorityClassName)) && "
                    + "((has(self.runner) && has(self.runner.terminationGracePeriodSeconds)) == (has(oldSelf.runner) && has(oldSelf.runner.terminationGracePeriodSeconds)) && (!(has(self.runner) && has(self.runner.terminationGracePeriodSeconds)) || self.runner.terminationGracePeriodSeconds == oldSelf.runner.terminationGracePeriodSeconds))";

    public static final String IMMUTABLE_MESSAGE =
            "spec is immutable: a TcpLoadTest runs once. To run it again, create a new TcpLoadTest"
                    + " (another name), or delete this one first.";

    private SpecRules() {}
}
