"""torch.nn's non-numeric behaviour against real PyTorch: module repr strings, registered names and the
exception type and message of bad input, recorded in tests/golden/nn_meta.json by
tests/golden/generate_nn_meta.py (torch 2.13.0) and replayed here on borch_webgpu (cpu device)."""
from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import borch_webgpu as bw  # noqa: E402

from generate_nn_meta import ERRORS, REPRS, STRUCTURE, _structure, namespace  # noqa: E402

META = json.loads((GOLDEN / "nn_meta.json").read_text())
NS = namespace(bw)

# Messages written by core ops outside nn (ops/views.py, ops/reduce.py): same exception type as
# PyTorch, their own wording; compared by type only.
# dim errors name the op first ("softmax: Dimension out of range ..."); PyTorch's text has no op name
CORE_MESSAGE = {"Softmax dim": "the op name is prefixed", "Flatten 0-d": "the op name is prefixed"}


def _eval(expr: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval(expr, dict(NS))  # noqa: S307 - our own list of expressions


def _normalise(msg: str) -> str:
    """Our package name for PyTorch's, and sets printed in sorted order (Python prints them in hash order)."""
    msg = msg.replace("borch_webgpu.nn.modules", "torch.nn.modules")
    return re.sub(r"\{('[^{}]*')\}", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", msg)


def test_meta_file_is_up_to_date_with_the_generator():
    assert [e for e, _ in META["reprs"]] == REPRS
    assert [e for e, _ in META["structure"]] == STRUCTURE
    assert [(n, c) for n, c, _, _ in META["errors"]] == ERRORS, "run python tests/golden/generate_nn_meta.py"


@pytest.mark.parametrize("expr,want", META["reprs"], ids=[e for e, _ in META["reprs"]])
def test_repr_matches_pytorch(expr, want):
    assert repr(_eval(expr)) == want


@pytest.mark.parametrize("expr,want", META["structure"], ids=[e for e, _ in META["structure"]])
def test_registered_names_match_pytorch(expr, want):
    got = json.loads(json.dumps(_structure(_eval(expr))))
    assert got == want


@pytest.mark.parametrize("name,code,typ,msg", META["errors"], ids=[e[0] for e in META["errors"]])
def test_bad_input_raises_pytorchs_exception(name, code, typ, msg):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, dict(NS))  # noqa: S102 - our own list
    except Exception as e:  # noqa: BLE001 - comparing with PyTorch's exception
        assert type(e).__name__ == typ, f"{type(e).__name__}: {e}; PyTorch raises {typ}: {msg}"
        if name not in CORE_MESSAGE:
            assert _normalise(str(e)) == _normalise(msg)
        return
    pytest.fail(f"did not raise; PyTorch raises {typ}: {msg}")
