"""isclose / allclose / equal and torch.testing.assert_close on WebGPU in Chromium, against the
answers frozen from PyTorch: the golden cases of the three ops (tests/golden/cases_compare.py) and
the expressions of tests/golden/compare.json (values, exception types and messages)."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def run_golden_script(browser, summary_line):
    """Run a tests/golden script in the booted page with tests/golden mounted; (exit code, stdout)."""
    def run(script: str, argv: list[str]) -> tuple[int, str]:
        code, out, err = browser.run_golden(script, ["--device", "webgpu", *argv], timeout_s=600)
        return code, out + err

    return run


def _last(out: str, prefix: str) -> str:
    lines = [line for line in out.splitlines() if line.startswith(prefix)]
    return lines[-1] if lines else ""


def test_isclose_allclose_equal_goldens_on_webgpu(run_golden_script, summary_line):
    code, out = run_golden_script("replay.py", ["isclose", "allclose", "equal"])
    last = _last(out, "golden:")
    summary_line("webgpu isclose/allclose/equal " + last)
    assert code == 0 and " 0 failed" in last, out[-6000:]


def test_assert_close_and_dtype_queries_on_webgpu(run_golden_script, summary_line):
    code, out = run_golden_script("replay_compare.py", [])
    last = _last(out, "compare:")
    summary_line("webgpu " + last)
    assert code == 0 and " 0 failed" in last, out[-6000:]
