#!/usr/bin/env bash
# Run the whole test suite several times in a row with CPU hogs beside it (and, with --ray, a foreign Ray cluster
# on the machine), logging the load average: the suite must not depend on the clock or on what else runs.
#
#   tools/suite_under_load.sh [--runs N] [--hogs H] [--nice K] [--ray] [PYTEST ARGS]
#
# Each hog is a busy Python loop at niceness K (default 0: they compete with the tests as equals). The log of each
# run and the load samples (every 15 s) go to $PLIES_LOAD_LOG (default /tmp/plies-load); a summary line per run
# prints its exit status, wall time and the mean and least 1-minute load average it ran at.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=3
HOGS=4
NICE=0
RAY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --hogs) HOGS=$2; shift 2 ;;
    --nice) NICE=$2; shift 2 ;;
    --ray) RAY=1; shift ;;
    *) break ;;
  esac
done
PY=${PLIES_VENV:-.venv}/bin/python
LOG=${PLIES_LOAD_LOG:-/tmp/plies-load}
mkdir -p "$LOG"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ "$RAY" = 1 ]; then "$(dirname "$PY")/ray" stop --force >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
for _ in $(seq "$HOGS"); do
  nice -n "$NICE" "$PY" -c "while True: pass" & pids+=($!)
done
if [ "$RAY" = 1 ]; then
  # a cluster someone else started on this machine, on loopback, before the tests
  "$(dirname "$PY")/ray" start --head --node-ip-address 127.0.0.1 --num-cpus 1 --include-dashboard false \
    --disable-usage-stats >"$LOG/ray-start.txt" 2>&1
fi
status=0
for run in $(seq "$RUNS"); do
  samples="$LOG/load-$run.txt"
  : >"$samples"
  (while true; do cut -d' ' -f1 /proc/loadavg >>"$samples"; sleep 15; done) & sampler=$!
  start=$(date +%s)
  rc=0
  "$PY" -m pytest -p no:cacheprovider --timeout=600 "$@" >"$LOG/run-$run.txt" 2>&1 || rc=$?
  kill "$sampler" 2>/dev/null || true
  wall=$(( $(date +%s) - start ))
  load=$(awk '{s+=$1; if (min=="" || $1<min) min=$1} END {printf "mean %.1f, least %.1f", s/NR, min}' "$samples")
  echo "run $run: exit $rc, $wall s, load $load ($(tail -1 "$LOG/run-$run.txt"))"
  [ "$rc" = 0 ] || status=1
done
exit $status
