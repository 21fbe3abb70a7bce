"""benchmarks/scaling: the C program that measures the parallel search without Python builds against the core's
sources and gives the same values at every thread count."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCALING = ROOT / "benchmarks" / "scaling"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_scaling_program_builds_and_agrees_across_threads(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(SCALING / "export.py"), "--ids", "40", "--openings", "3",
                    "--out", str(tmp_path)], check=True, capture_output=True)
    exe = tmp_path / "scaling"
    subprocess.run(["gcc", "-O2", "-std=gnu11", "-pthread", "-Wno-psabi", "-I", str(ROOT / "src/plies/csrc"),
                    str(SCALING / "scaling.c"), "-o", str(exe), "-lm"], check=True, capture_output=True)
    end = subprocess.run([str(exe), str(tmp_path / "weights.bin"), str(tmp_path / "ffo.txt"), "1", "3"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    mid = subprocess.run([str(exe), "--depth", "5", str(tmp_path / "weights.bin"), str(tmp_path / "openings.txt"),
                          "1", "2"], check=True, capture_output=True, text=True).stdout.splitlines()
    assert len(end) == 2 and all(line.endswith("values +38") for line in end)  # FFO #40: +38
    assert len(mid) == 2 and mid[0].split("values")[1] == mid[1].split("values")[1]
    bad = subprocess.run([str(exe), "nonexistent"], capture_output=True, text=True)
    assert bad.returncode == 2 and "usage" in bad.stderr
