/**
 * Transaction mixes, pure: the order in which each connection takes the named requests of a profile
 * ({@link io.tcpload.runner.mix.WeightedOrder}).
 */
package io.tcpload.runner.mix;
