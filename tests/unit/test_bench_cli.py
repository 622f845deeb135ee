"""``python -m borch_webgpu.bench``'s command line, in CPython (no browser is started)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_help_lists_resnet18():
    r = subprocess.run([sys.executable, "-m", "borch_webgpu.bench", "--help"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "resnet18" in r.stdout and "--node" in r.stdout and "--sizes" in r.stdout


def test_bench_table_without_compiled_figures():
    from borch_webgpu.bench import table
    run = {"ms": {"median": 10.0}, "gpu_ms": None, "per_step": {"dispatches": 5, "js_calls": 3},
           "max_memory_allocated": 2**20}
    text = table({"train": {"b4": {"eager": run, "compiled": None}}, "mlp": {"eager": run, "compiled": run}})
    assert "train B4" in text and "mlp B64" in text and "1.00" in text
