/**
 * Open-model load: when each request of a constant-rate ({@code -R}) or staged ({@code --stages})
 * run should be sent. Pure: no clock, no executor, no Netty; times are nanoseconds elapsed since
 * the run's start, and every class is tested by simulation.
 *
 * <p>{@link io.tcpload.runner.rate.RateSchedule} is the whole run's rate curve and the exact
 * sequence of fire times it implies (send {@code k} at the instant the integral of the rate exceeds
 * {@code k}; at a constant rate {@code round(k * 1e9 / R)}, with no accumulated drift). {@link
 * io.tcpload.runner.rate.FireTimes} walks one slice of that sequence: the sends of one event loop
 * of one runner pod, interleaved so that every slice is evenly spread and all slices together are
 * the whole sequence. {@link io.tcpload.runner.rate.Stages} parses {@code --stages}.
 *
 * <h2>How the engine drives it</h2>
 *
 * <ol>
 *   <li>Build one schedule for the run: {@code RateSchedule.constant(R, durationMs)} for {@code -R}
 *       with {@code -d}, or {@code RateSchedule.stages(rGivenOr0, Stages.parse(text))}; the run
 *       lasts {@link io.tcpload.runner.rate.RateSchedule#totalDurationMs()}. The rate is the total
 *       of the whole run, every runner pod included.
 *   <li>Each event loop takes {@code schedule.fireTimes(runnerIndex, runnerCount, loopIndex,
 *       loops)} and owns it. All loops share one start instant {@code startNs} (the value of {@code
 *       System.nanoTime()} they are given with the start task).
 *   <li>On the loop, a send is taken from the iterator only when a connection can write it, so the
 *       iterator itself is the backlog of a stalled target (no queue, no memory growth). A dispatch
 *       step takes {@code now}; while {@code fireTimes.peek() != END && startNs + fireTimes.peek()
 *       <= now} and a connection is idle, it takes {@code intended = startNs + fireTimes.next()}
 *       and writes the request on that connection. Then, if a connection is still idle and {@code
 *       peek()} is not {@code END}, it schedules itself after {@code startNs + peek() - now} ns;
 *       otherwise the next connection that becomes idle (a response, a reconnect) runs the step. It
 *       never sleeps; a late step sends everything due at once, and later times do not shift. A
 *       loop that would sit idle until the fire time sets its timer {@link
 *       io.tcpload.runner.rate.WakeLead#leadNs} ahead of it, builds the request when it wakes, and
 *       spins the rest, telling {@link io.tcpload.runner.rate.WakeLead#record} how late it was
 *       ready. {@link io.tcpload.runner.rate.FireTimes#dueAt(long)} is the number of sends waiting
 *       for a connection, for progress and metrics.
 *   <li>Latency is measured from the intended time into the corrected histogram, and from the
 *       actual write into the uncorrected one (no {@code recordValueWithExpectedInterval}). A send
 *       written later than its intended time counts as behind schedule; its lag ({@code write -
 *       intended}) goes into a lag histogram, for {@code RateReport.behindSchedule}.
 *   <li>{@link io.tcpload.runner.rate.FireTimes#sendsBefore(long)} and {@link
 *       io.tcpload.runner.rate.RateSchedule#sendsBefore(long)} say how many sends were due by a
 *       time, to compare with those made; {@link io.tcpload.runner.rate.RateSchedule#stageAt(long)}
 *       tells which stage a send or a response belongs to, for the per-stage table.
 * </ol>
 */
package io.tcpload.runner.rate;
