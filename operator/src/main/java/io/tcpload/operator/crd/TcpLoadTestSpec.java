package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.tcpload.runner.contract.RunnerLimits;
import java.util.ArrayList;
import java.util.List;

/**
 * What to run: the profile, the load's shape and size, the pass criteria and the runner pods'
 * settings. A test runs once; the operator refuses changes made after it started.
 */
@ValidationRule(
        value = SpecRules.ONE_PROFILE,
        message = SpecRules.ONE_PROFILE_MESSAGE,
        fieldPath = ".profile")
@ValidationRule(
        value = SpecRules.DURATION_OR_STAGES,
        message = SpecRules.DURATION_OR_STAGES_MESSAGE,
        fieldPath = ".duration")
@ValidationRule(
        value = SpecRules.SEARCH_ALONE,
        message = SpecRules.SEARCH_ALONE_MESSAGE,
        fieldPath = ".search")
@ValidationRule(
        value = SpecRules.SEARCH_SHARED,
        message = SpecRules.SEARCH_SHARED_MESSAGE,
        fieldPath = ".search")
@ValidationRule(
        value = SpecRules.CONNECTIONS_COVER_LOOPS,
        message = SpecRules.CONNECTIONS_COVER_LOOPS_MESSAGE,
        fieldPath = ".connections")
@ValidationRule(
        value = SpecRules.CONNECTIONS_PER_RUNNER,
        message = SpecRules.CONNECTIONS_PER_RUNNER_MESSAGE,
        fieldPath = ".connections")
@ValidationRule(
        value = SpecRules.RATE_SHARED,
        message = SpecRules.RATE_SHARED_MESSAGE,
        fieldPath = ".rate")
@ValidationRule(
        value = SpecRules.SHOW_VALUES_IN_DRY_RUN,
        message = SpecRules.SHOW_VALUES_IN_DRY_RUN_MESSAGE,
        fieldPath = ".dryRunShowValues")
@ValidationRule(value = SpecRules.IMMUTABLE, message = SpecRules.IMMUTABLE_MESSAGE)
public class TcpLoadTestSpec {
    @Size(max = SpecLimits.INLINE_TEXT_MAX)
    @JsonPropertyDescription(
            "The wrktcp INI profile, as text. Give either profile or profileFrom. The inline"
                    + " profile and files together are at most 200 KiB; larger ones go in a"
                    + " ConfigMap.")
    private String profile;

    @JsonPropertyDescription(
            "Take the INI profile from a ConfigMap or Secret key instead of profile.")
    private ProfileSource profileFrom;

    @Size(max = SpecLimits.FILES_MAX)
    @ValidationRule(
            value = SpecRules.FILE_NAMES_UNIQUE,
            message = SpecRules.FILE_NAMES_UNIQUE_MESSAGE)
    @JsonPropertyDescription(
            "Data files for the profile's FILE parameters, placed beside the profile; every FILE"
                    + " path must be the name of one of them.")
    private List<DataFile> files = new ArrayList<>();

    @JsonPropertyDescription(
            "Host and port to load, overriding the profile's [common] host and port.")
    private TargetOverride target;

    @JsonPropertyDescription(
            "TLS files for a profile with tls = true: the client certificate (a kubernetes.io/tls"
                    + " Secret) and the CA bundle (a ConfigMap or Secret key), mounted into the"
                    + " runner pods in place of the profile's tls_cert, tls_key and tls_ca.")
    // Left out of the JSON when absent, so that a spec without it hashes as before it existed.
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private TlsSettings tls;

    @Min(1)
    @Max(RunnerLimits.THREADS_MAX)
    @Default("1")
    @JsonPropertyDescription("Event loops per runner pod (the runner's -t).")
    private Integer threads = 1;

    @Min(1)
    @Max(RunnerLimits.TEST_CONNECTIONS_MAX)
    @Default("1")
    @JsonPropertyDescription(
            "Connections for the whole test, split across runners (the first runners take the"
                    + " remainder); at least runners x threads.")
    private Integer connections = 1;

    @Pattern(Durations.POSITIVE_PATTERN)
    @Size(max = SpecLimits.DURATION_MAX)
    @JsonPropertyDescription(
            "How long the load runs: 30s, 2m, 500ms, 1h (a bare number is seconds). Give either"
                    + " duration or stages.")
    private String duration;

    @Pattern(Durations.POSITIVE_PATTERN)
    @Size(max = SpecLimits.DURATION_MAX)
    @Default("5s")
    @JsonPropertyDescription("Connect and response timeout (the runner's --timeout).")
    private String timeout = "5s";

    @Default("false")
    @JsonPropertyDescription(
            "Reuse each connection for many requests (the runner's --keepalive); otherwise one"
                    + " request per connection, as wrktcp.")
    private Boolean keepAlive = false;

    @Min(1)
    @Max(RunnerLimits.RATE_MAX)
    @JsonPropertyDescription(
            "Constant request rate for the whole test, in requests per second, split across"
                    + " runners; absent means as fast as the connections allow.")
    private Long rate;

    @Size(max = RunnerLimits.STAGES_MAX)
    @JsonPropertyDescription(
            "A rate schedule instead of duration and rate: each stage ramps linearly to its"
                    + " rate.")
    private List<Stage> stages = new ArrayList<>();

    @Min(1)
    @Max(RunnerLimits.RUNNERS_MAX)
    @Default("1")
    @PrinterColumn(name = "Runners")
    @JsonPropertyDescription(
            "Runner pods; connections and rate are split across them, and their results are"
                    + " merged exactly.")
    private Integer runners = 1;

    @JsonPropertyDescription(
            "Pass criteria, all of which must hold for the test to succeed, such as 'p99 < 250ms',"
                    + " 'successRatio >= 0.99', 'errorRatio <= 0.01', 'tps >= 1000'. Metrics: p50,"
                    + " p75, p90, p99, p99.9, p99.99, mean, max, successRatio, errorRatio, tps;"
                    + " operators <, <=, >, >=; latencies take us, ms or s.")
    @Size(max = SpecLimits.THRESHOLDS_MAX)
    private List<@Size(max = SpecLimits.THRESHOLD_MAX) @Pattern(ThresholdSyntax.PATTERN) String>
            thresholds = new ArrayList<>();

    @JsonPropertyDescription("Settings of the runner pods.")
    private RunnerPodSettings runner = new RunnerPodSettings();

    @Min(1)
    @Max(Integer.MAX_VALUE)
    @Default("300")
    @JsonPropertyDescription(
            "Seconds the runner pods have to become ready together before the test fails.")
    private Integer startTimeoutSeconds = 300;

    @Min(0)
    @Max(Integer.MAX_VALUE)
    @JsonPropertyDescription(
            "Seconds after the test finishes when its Jobs and pods are deleted; the TcpLoadTest"
                    + " stays as the record of the result. Absent keeps them.")
    private Integer ttlSecondsAfterFinished;

    @JsonPropertyDescription(
            "A dry run instead of the load: one runner pod sends each request of the profile once,"
                    + " in order, and the exchange (bytes as hex, framing, code, verdict) is"
                    + " written into status.dryRun, values of ENV parameters, Secret-sourced"
                    + " files and values carried from responses (rsp_extract) masked unless"
                    + " dryRunShowValues; Succeeded when every response is a success. Runners,"
                    + " connections, duration and thresholds are not used.")
    // Left out of the JSON when absent, so that a spec without it hashes as before it existed.
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean dryRun;

    @JsonPropertyDescription(
            "With dryRun: true, show in status.dryRun (and the runner's log) the values a dry run"
                    + " masks by default: ENV parameters, lines of Secret-sourced files, values"
                    + " carried from responses. For a test service whose values are not secret;"
                    + " anyone who can read the test then reads them.")
    // Left out of the JSON when absent, so that a spec without it hashes as before it existed.
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Boolean dryRunShowValues;

    @JsonPropertyDescription(
            "A capacity search instead of duration, rate and stages: constant-rate steps on all"
                    + " runners together, each merged exactly and judged by the objective and the"
                    + " backlog, narrowed to the highest rate that holds; the result is in"
                    + " status.capacity. Thresholds, if any, are judged on its confirmation step.")
    // Left out of the JSON when absent, so that a spec without it hashes as before it existed.
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private SearchSettings search;

    public SearchSettings getSearch() {
        return search;
    }

    public void setSearch(SearchSettings search) {
        this.search = search;
    }

    public Boolean getDryRun() {
        return dryRun;
    }

    public void setDryRun(Boolean dryRun) {
        this.dryRun = dryRun;
    }

    public Boolean getDryRunShowValues() {
        return dryRunShowValues;
    }

    public void setDryRunShowValues(Boolean dryRunShowValues) {
        this.dryRunShowValues = dryRunShowValues;
    }

    public String getProfile() {
        return profile;
    }

    public void setProfile(String profile) {
        this.profile = profile;
    }

    public ProfileSource getProfileFrom() {
        return profileFrom;
    }

    public void setProfileFrom(ProfileSource profileFrom) {
        this.profileFrom = profileFrom;
    }

    public List<DataFile> getFiles() {
        return files;
    }

    public void setFiles(List<DataFile> files) {
        this.files = files;
    }

    public TargetOverride getTarget() {
        return target;
    }

    public void setTarget(TargetOverride target) {
        this.target = target;
    }

    public TlsSettings getTls() {
        return tls;
    }

    public void setTls(TlsSettings tls) {
        this.tls = tls;
    }

    public Integer getThreads() {
        return threads;
    }

    public void setThreads(Integer threads) {
        this.threads = threads;
    }

    public Integer getConnections() {
        return connections;
    }

    public void setConnections(Integer connections) {
        this.connections = connections;
    }

    public String getDuration() {
        return duration;
    }

    public void setDuration(String duration) {
        this.duration = duration;
    }

    public String getTimeout() {
        return timeout;
    }

    public void setTimeout(String timeout) {
        this.timeout = timeout;
    }

    public Boolean getKeepAlive() {
        return keepAlive;
    }

    public void setKeepAlive(Boolean keepAlive) {
        this.keepAlive = keepAlive;
    }

    public Long getRate() {
        return rate;
    }

    public void setRate(Long rate) {
        this.rate = rate;
    }

    public List<Stage> getStages() {
        return stages;
    }

    public void setStages(List<Stage> stages) {
        this.stages = stages;
    }

    public Integer getRunners() {
        return runners;
    }

    public void setRunners(Integer runners) {
        this.runners = runners;
    }

    public List<String> getThresholds() {
        return thresholds;
    }

    public void setThresholds(List<String> thresholds) {
        this.thresholds = thresholds;
    }

    public RunnerPodSettings getRunner() {
        return runner;
    }

    public void setRunner(RunnerPodSettings runner) {
        this.runner = runner;
    }

    public Integer getStartTimeoutSeconds() {
        return startTimeoutSeconds;
    }

    public void setStartTimeoutSeconds(Integer startTimeoutSeconds) {
        this.startTimeoutSeconds = startTimeoutSeconds;
    }

    public Integer getTtlSecondsAfterFinished() {
        return ttlSecondsAfterFinished;
    }

    public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
        this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
    }
}
