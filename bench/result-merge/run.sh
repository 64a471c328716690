#!/usr/bin/env bash
# The operator taking in 100 runners x 24 h results (as each runner serves it on /result), parsed,
# kept and merged once, with the chart's heap (75% of its 512 MiB memory limit, serial GC):
# the size of one result, the time, and the peak heap.
#
#   bash bench/result-merge/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
./mvnw -q -B -pl runner,operator test-compile dependency:build-classpath -Dspotless.check.skip \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath >/dev/null
classpath="operator/target/test-classes:operator/target/classes:runner/target/classes:$(cat operator/target/bench.classpath)"
exec java -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$classpath" \
  io.tcpload.operator.bench.ResultMergeBench
