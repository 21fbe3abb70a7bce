#!/bin/bash
# Phase-by-phase search labels (Buro's scheme), as used for the shipped weights (docs/training.md).
#
#   tools/train_phases.sh WORKDIR BASE_WEIGHTS DATA...
#
# Starting from BASE_WEIGHTS (fitted on game-result and exact labels), phase 7 (25-21 empties) down to phase 0
# (60-56) in turn: relabel the positions of the phase, and the 4 empties above it that its fit also reads
# (--overlap 4), by a depth-6 search with the weights fitted so far, then refit that phase alone.  Phase 7's
# step also relabels 19-20 empties (the positions of phase 8 that are not solved exactly) and refits phase 8.
# Every step writes WORKDIR/<k>-<data name> and WORKDIR/w<k>.npz; WORKDIR/w0.npz is the result.  Steps that
# were already written are skipped, and an interrupted relabelling resumes.  EXTRA="FILE..." adds data files
# (already relabelled, e.g. an earlier round's WORKDIR/0-*) to every fit without relabelling them again.
set -euo pipefail
work=$1; base=$2; shift 2
mkdir -p "$work"
plies=${PLIES:-plies}
prev_w=$base
prev=("$@")
for k in 7 6 5 4 3 2 1 0; do
  lo=$((5 * (11 - k) + 1)); hi=$((lo + 8)); [ $hi -gt 60 ] && hi=60
  refit=$k
  if [ $k = 7 ]; then lo=19; refit=7,8; fi
  cur=()
  for f in "${prev[@]}"; do
    out="$work/$k-$(basename "${f#"$work"/?-}")"
    if [ ! -e "$out.done" ]; then
      $plies train label "$f" --out "$out" --depth 6 --empties $lo-$hi --weights "$prev_w" --workers "${WORKERS:-2}" --resume
      touch "$out.done"
    fi
    cur+=("$out")
  done
  if [ ! -e "$work/w$k.npz" ]; then
    # shellcheck disable=SC2086
    $plies train fit "${cur[@]}" ${EXTRA:-} --out "$work/w$k.npz" --refit $refit --base "$prev_w"
  fi
  prev_w=$work/w$k.npz
  prev=("${cur[@]}")
done
echo "weights: $work/w0.npz"
