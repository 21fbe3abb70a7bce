#!/bin/bash
# One round of the learned evaluation (docs/training.md, step 8): self-play searched with the current
# weights, a fit to its search values, the odd/even calibration and the ProbCut statistics of the result.
#
#   tools/train_round.sh WORKDIR GAMES [SEED]
#
# Writes WORKDIR/data.jsonl, fit.npz, weights.npz (calibrated) and probcut.json, then prints the match that
# accepts or rejects them.  A step whose output exists is skipped and the self-play resumes, so an interrupted
# round goes on where it stopped.  Settings, from the environment:
#   BASE, BASE_STATS  weights and ProbCut statistics the self-play searches with and the fit starts from
#                     [the shipped ones]; the next round takes this round's weights.npz and probcut.json
#   DEPTH [8], EXACT [20]  self-play depth, and the empties from which games are solved exactly
#   FIT [tune]        tune: the change from BASE (ridge towards BASE); fresh: every weight from this data alone
#   L2 [50], EXTRA    the fit's ridge, and more data files for it (e.g. an earlier round's data.jsonl)
#   WORKERS [cores]   processes; RAY=1 plays the games on a Ray cluster instead (plies[ray], RAY_ADDRESS)
#   CAL_ARGS, PC_ARGS  more options for plies train calibrate and plies train probcut (e.g. "--positions 300")
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
work=$1; games=$2; seed=${3:-1}
plies=${PLIES:-plies}
base=${BASE:-}
base_stats=${BASE_STATS:-}
workers=${WORKERS:-$(nproc)}
mkdir -p "$work"

searcher=()
[ -n "$base" ] && searcher+=(--weights "$base")
[ -n "$base_stats" ] && searcher+=(--stats "$base_stats")
ray=()
[ "${RAY:-0}" = 1 ] && ray=(--ray)

# 1. self-play with the current weights, each position's search value kept as its label
$plies train data --games "$games" --out "$work/data.jsonl" --seed "$seed" --depth "${DEPTH:-8}" \
  --exact "${EXACT:-20}" --search-values --workers "$workers" --resume "${searcher[@]}" "${ray[@]}"

# 2. the fit: exact scores where the game was solved, search values before
if [ ! -e "$work/fit.npz" ]; then
  tune=()
  if [ "${FIT:-tune}" = tune ]; then
    python=$(dirname "$(command -v "$plies")")/python
    [ -x "$python" ] || python=python3
    tune=(--tune --base "${base:-$("$python" -c 'from plies.engine.weights import DEFAULT_WEIGHTS; print(DEFAULT_WEIGHTS)')}")
  fi
  # shellcheck disable=SC2086
  $plies train fit "$work/data.jsonl" ${EXTRA:-} --out "$work/fit.npz" --search-share 1 --iterations 100 \
    --l2 "${L2:-50}" --workers "$workers" "${tune[@]}"
fi

# 3. odd and even depths agree; the game results set what alternates with the side to move
if [ ! -e "$work/weights.npz" ]; then
  # shellcheck disable=SC2086
  $plies train calibrate --out "$work/weights.npz" --weights "$work/fit.npz" --rounds 2 \
    --anchor "$work/data.jsonl" --workers "$workers" ${CAL_ARGS:-}
fi

# 4. the selective search's statistics for the new weights
if [ ! -e "$work/probcut.json" ]; then
  # shellcheck disable=SC2086
  $plies train probcut --out "$work/probcut.json" --weights "$work/weights.npz" --workers "$workers" ${PC_ARGS:-}
fi

new="weights=$work/weights.npz,stats=$work/probcut.json"
old=""
[ -n "$base" ] && old=",weights=$base"
[ -n "$base_stats" ] && old="$old,stats=$base_stats"
echo "round done: $work/weights.npz and $work/probcut.json; accept them only through a match at equal time:"
echo "  $plies match \"engine:time=0.3,threads=1,book=off,$new\" \"engine:time=0.3,threads=1,book=off$old\" \\"
echo "    --openings balanced8 --sprt 0,25 --workers 2"
