#!/usr/bin/env bash
# Install plies and everything its tests need on a fresh machine, then run the whole test suite.
# System packages (Debian): a C compiler for the compiled core, chromium for the browser tests (plies draws its
# own pictures: no graphviz).
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  if ! command -v chromium >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core gcc libc6-dev >/dev/null
  fi
fi

VENV=${PLIES_VENV:-.venv}
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q -e '.[test,ray]'

"$VENV/bin/python" -m ruff check src tests benchmarks tools docs/notebooks
"$VENV/bin/python" -m mypy src/plies
"$VENV/bin/python" -m pytest -p no:cacheprovider --timeout=600 "$@"
