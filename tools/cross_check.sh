#!/usr/bin/env bash
# Build the compiled core's C test driver (tools/core_check.c) for every target this machine can build and run,
# and run it: perft counts, the learned evaluation against the Python reference, exact FFO solves (one thread and
# the parallel search's threads).  Each target is built twice: the GNU C path (__builtin_*, __atomic, and the
# vector extensions where they pay: ARM64, x86-64 with AVX2) and the plain-C path (-DPLIES_PORTABLE), the latter
# as strict ISO C (-std=c11 -pedantic -Werror).
#
#   tools/cross_check.sh [--install] [FFO_IDS]     (default FFO ids: 40-42)
#
# Targets, each where its tools are installed (--install: apt-get them first, Debian's packages):
#   native    gcc (also with AVX2, where the CPU has it: the vector lanes), and clang where it is installed
#   aarch64   gcc-aarch64-linux-gnu, static, run under qemu-user (qemu-aarch64)
#   windows   mingw-w64 (x86_64-w64-mingw32-gcc), static, run under wine (Windows threads, not pthreads)
# A target whose tools are missing is reported as skipped; the script fails when a build or a run fails.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--install" ]; then
  shift
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends gcc clang gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user \
    mingw-w64 wine >/dev/null
fi
IDS=${1:-40-42}
PY=${PYTHON:-$(command -v .venv/bin/python || command -v python3)}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

"$PY" tools/core_check_data.py "$WORK" "$IDS" >/dev/null
WARN=(-Wall -Wextra -Werror -Wno-unused-function)
GNU=(-O2 -std=gnu11 "${WARN[@]}" -Wno-psabi)
ISO=(-O2 -std=c11 -pedantic "${WARN[@]}" -DPLIES_PORTABLE)
SRC=(-Isrc/plies/csrc tools/core_check.c)
failed=0
summary=()

run() {  # NAME RUNNER... -- CC FLAGS...: build, then run (RUNNER may be empty)
  local name=$1
  shift
  local runner=()
  while [ "$1" != "--" ]; do runner+=("$1"); shift; done
  shift
  local exe="$WORK/$name.exe"
  if ! "$@" -o "$exe" "${SRC[@]}" -lm 2>"$WORK/$name.log"; then
    echo "== $name: BUILD FAILED"; cat "$WORK/$name.log"; failed=1; summary+=("$name: build failed"); return
  fi
  echo "== $name"
  local t0=$SECONDS
  if "${runner[@]}" "$exe" "$WORK/cases.txt" "$WORK/weights.f32" 2 >"$WORK/$name.out" 2>"$WORK/$name.err"; then
    grep -v '^ok   perft [1-7]:' "$WORK/$name.out"
    summary+=("$name: passed ($((SECONDS - t0)) s)")
  else
    cat "$WORK/$name.out" "$WORK/$name.err"; failed=1; summary+=("$name: FAILED")
  fi
}

have() { command -v "$1" >/dev/null 2>&1; }

if have gcc; then
  run gcc-gnu -- gcc "${GNU[@]}" -pthread
  run gcc-iso -- gcc "${ISO[@]}" -pthread
  if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw bmi2 /proc/cpuinfo; then  # the vector lanes on x86-64
    run gcc-avx2 -- gcc "${GNU[@]}" -mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt -mfma -pthread
  fi
else summary+=("gcc: skipped (not installed)"); fi
if have clang; then
  run clang-gnu -- clang "${GNU[@]}" -pthread
  run clang-iso -- clang "${ISO[@]}" -pthread
else summary+=("clang: skipped (not installed)"); fi
if have aarch64-linux-gnu-gcc && have qemu-aarch64; then
  run aarch64-gnu qemu-aarch64 -- aarch64-linux-gnu-gcc "${GNU[@]}" -static -pthread
  run aarch64-iso qemu-aarch64 -- aarch64-linux-gnu-gcc "${ISO[@]}" -static -pthread
else summary+=("aarch64: skipped (gcc-aarch64-linux-gnu or qemu-user not installed)"); fi
if have x86_64-w64-mingw32-gcc && have wine; then
  export WINEDEBUG=-all WINEPREFIX="$WORK/wine"
  run windows-gnu wine -- x86_64-w64-mingw32-gcc "${GNU[@]}" -static
  run windows-iso wine -- x86_64-w64-mingw32-gcc "${ISO[@]}" -static
else summary+=("windows: skipped (mingw-w64 or wine not installed)"); fi

echo
printf '%s\n' "${summary[@]}"
exit $failed
