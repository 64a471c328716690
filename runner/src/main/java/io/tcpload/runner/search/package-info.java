/**
 * Capacity search, pure: {@link io.tcpload.runner.search.CapacitySearch}, the state machine that
 * chooses each step's rate (grow, bisect, confirm, step down), {@link
 * io.tcpload.runner.search.StepFigures} (what a step measured, its backlog included) and {@link
 * io.tcpload.runner.search.Verdict} (the objective and the backlog rules). No clock and no load:
 * the runner's session and an orchestrator drive it with the results of real steps.
 */
package io.tcpload.runner.search;
