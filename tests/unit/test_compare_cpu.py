"""torch.testing.assert_close, isclose/allclose/equal's argument checks and the dtype queries
(finfo, iinfo, promote_types, result_type, can_cast, is_tensor, ...) on the cpu device, against
PyTorch's answers frozen in tests/golden/compare.json (tests/golden/generate_compare.py).
isclose/allclose/equal's values are golden cases too (tests/golden/cases_compare.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import replay_compare  # noqa: E402

CASES = replay_compare.load()


def test_every_case_is_frozen():
    import compare_cases
    assert [tuple(c[:2]) for c in compare_cases.CASES] == [(c["id"], c["expr"]) for c in CASES], \
        "compare_cases.py changed: run python tests/golden/generate_compare.py (needs torch==2.13.0)"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matches_pytorch_cpu(case):
    err = replay_compare.check(case, "cpu")
    assert err is None, err


def test_assert_close_is_reachable_as_torch_testing():
    import borch_webgpu as torch
    from borch_webgpu.testing import assert_close
    assert torch.testing.assert_close is assert_close
    assert torch.Tensor.isclose.__name__ == "isclose" and torch.Tensor.equal.__name__ == "equal"


def test_assert_close_bool_against_number_raises_runtime_error():
    # torch 2.13: RuntimeError "Originating a NumberPair() at item  with bool(): True and int(): 1 ..."
    import borch_webgpu as torch
    for a, b in ((True, 1), (1, True), (1.0, True)):
        with pytest.raises(RuntimeError, match="bool"):
            torch.testing.assert_close(a, b)
