#!/usr/bin/env bash
# Install plies and everything its tests need on a fresh machine, then run the whole test suite.
# System packages (Debian): a C compiler for the compiled core, chromium for the browser tests (plies draws its
# own pictures: no graphviz); for the full run also Clang, the ARM64 and Windows cross compilers, qemu-user and
# wine, with which tools/cross_check.sh builds and runs the core's C test driver on those targets.
#
#   tools/test.sh [PYTEST ARGS]           install, lint, type-check, the cross builds, then every test (what CI runs)
#   tools/test.sh --quick [PYTEST ARGS]   the fast loop: the existing environment as it is, lint, and every test
#                                         not marked slow (pytest -m "not slow"), stopping at the first failure
# Tests run on every core (pytest-xdist; PLIES_TEST_WORKERS=N sets how many), then those marked serial (real time
# limits that a busy neighbour would break) one at a time.
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=0
if [ "${1:-}" = "--quick" ]; then
  QUICK=1
  shift
fi

VENV=${PLIES_VENV:-.venv}

# run_tests ONLY [PYTEST ARGS]: the tests that match the marker expression ONLY (every test when it is empty), on
# every core, then the serial ones among them alone (pytest's status 5, no test selected, is no failure: the
# arguments may name tests of one kind only)
run_tests() {
  local only=${1:+($1) and }
  shift
  local pytest=("$VENV/bin/python" -m pytest -p no:cacheprovider --timeout=600)
  "${pytest[@]}" -n "${PLIES_TEST_WORKERS:-auto}" -m "${only}not serial" "$@" || [ $? = 5 ]
  "${pytest[@]}" -m "${only}serial" "$@" || [ $? = 5 ]
}

if [ "$QUICK" = 1 ] && [ -x "$VENV/bin/python" ]; then
  "$VENV/bin/python" -m ruff check src tests benchmarks tools docs/notebooks
  run_tests "not slow" -x "$@"
  exit
fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  if ! command -v chromium >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core gcc libc6-dev >/dev/null
  fi
fi

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q -e '.[test,ray]'

"$VENV/bin/python" -m ruff check src tests benchmarks tools docs/notebooks
if [ "$QUICK" = 1 ]; then
  run_tests "not slow" -x "$@"
  exit
fi
"$VENV/bin/python" -m mypy src/plies
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && ! command -v wine >/dev/null 2>&1; then
  # the compiled core for ARM64 (run under qemu-user) and Windows (under wine), and Clang: Debian's packages
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends clang gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user \
    mingw-w64 wine >/dev/null || echo "tools/test.sh: no cross compilers; tools/cross_check.sh skips them" >&2
fi
PYTHON="$VENV/bin/python" bash tools/cross_check.sh 40-41
run_tests "" "$@"
