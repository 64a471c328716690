#!/usr/bin/env bash
# The operator's figures against the in-process mock API server and the kubelet double:
# start to ready and idle RSS (0 and 50 finished tests) of an operator in its own JVM,
# resource-created-to-Job-created latency, and the start skew of 10 runners.
#
#   bash bench/operator/run.sh [--idle-only | --ready-only [N]]
#
# OPERATOR_JAVA_OPTIONS replaces the operator JVM's options (default: the chart's, as they act
# under its memory limit).
set -euo pipefail
cd "$(dirname "$0")/../.."
# One reactor run, so that the operator's classpath takes the runner from runner/target/classes.
./mvnw -q -B -pl runner,operator test-compile dependency:build-classpath -Dspotless.check.skip \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath >/dev/null
classpath="operator/target/test-classes:operator/target/classes:runner/target/classes:$(cat operator/target/bench.classpath)"
exec java -cp "$classpath" io.tcpload.operator.bench.OperatorBench "$@"
