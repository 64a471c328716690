/**
 * Service level objectives, pure: {@link io.tcpload.runner.slo.Threshold}, the one threshold
 * grammar and parser (the operator's {@code spec.thresholds} and the runner's {@code --search}),
 * and {@link io.tcpload.runner.slo.Slo}, thresholds that must all hold, judged on a run's figures.
 */
package io.tcpload.runner.slo;
