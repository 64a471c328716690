package io.tcpload.runner.stats;

/**
 * Counts for tests, by name instead of twelve positional numbers. {@link #successes(long)} and
 * {@link #failures(long)} also set the requests to their sum unless {@link #requests(long)} is
 * given after them.
 */
public final class CountsBuilder {
    private long requests;
    private long successes;
    private long failures;
    private long connectErrors;
    private long readErrors;
    private long writeErrors;
    private long timeouts;
    private long bytesRead;
    private long bytesWritten;
    private long non2xx3xx;
    private long retried;
    private long tlsErrors;

    private CountsBuilder() {}

    public static CountsBuilder counts() {
        return new CountsBuilder();
    }

    /** Every count of {@code counts}, to change some. */
    public static CountsBuilder from(Counts counts) {
        CountsBuilder b = new CountsBuilder();
        b.requests = counts.requests();
        b.successes = counts.successes();
        b.failures = counts.failures();
        b.connectErrors = counts.connectErrors();
        b.readErrors = counts.readErrors();
        b.writeErrors = counts.writeErrors();
        b.timeouts = counts.timeouts();
        b.bytesRead = counts.bytesRead();
        b.bytesWritten = counts.bytesWritten();
        b.non2xx3xx = counts.non2xx3xx();
        b.retried = counts.retried();
        b.tlsErrors = counts.tlsErrors();
        return b;
    }

    public CountsBuilder requests(long requests) {
        this.requests = requests;
        return this;
    }

    public CountsBuilder successes(long successes) {
        this.successes = successes;
        this.requests = successes + failures;
        return this;
    }

    public CountsBuilder failures(long failures) {
        this.failures = failures;
        this.requests = successes + failures;
        return this;
    }

    public CountsBuilder connectErrors(long connectErrors) {
        this.connectErrors = connectErrors;
        return this;
    }

    public CountsBuilder readErrors(long readErrors) {
        this.readErrors = readErrors;
        return this;
    }

    public CountsBuilder writeErrors(long writeErrors) {
        this.writeErrors = writeErrors;
        return this;
    }

    public CountsBuilder timeouts(long timeouts) {
        this.timeouts = timeouts;
        return this;
    }

    public CountsBuilder bytesRead(long bytesRead) {
        this.bytesRead = bytesRead;
        return this;
    }

    public CountsBuilder bytesWritten(long bytesWritten) {
        this.bytesWritten = bytesWritten;
        return this;
    }

    public CountsBuilder non2xx3xx(long non2xx3xx) {
        this.non2xx3xx = non2xx3xx;
        return this;
    }

    public CountsBuilder retried(long retried) {
        this.retried = retried;
        return this;
    }

    public CountsBuilder tlsErrors(long tlsErrors) {
        this.tlsErrors = tlsErrors;
        return this;
    }

    public Counts build() {
        return new Counts(
                requests,
                successes,
                failures,
                connectErrors,
                readErrors,
                writeErrors,
                timeouts,
                bytesRead,
                bytesWritten,
                non2xx3xx,
                retried,
                tlsErrors);
    }
}
