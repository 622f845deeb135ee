"""Ask real PyTorch (2.13.0, CPU build) the cases of sparse_cases.py and write sparse.json:
``PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_sparse.py``. ``encode`` and ``run`` are
shared with replay_sparse.py, which asks borch_webgpu the same."""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from sparse_cases import CASES, ERRORS  # noqa: E402


def _is_tensor(x, torch) -> bool:
    return isinstance(x, torch.Tensor)


def encode(x, torch):
    """A JSON form of ``out``: tensors by dtype, shape and values; sparse tensors also by repr, indices, size
    and is_coalesced; sequences item by item; anything else by its value (layouts by their repr)."""
    if _is_tensor(x, torch):
        if x.is_sparse:
            return {"sparse": True, "repr": repr(x), "indices": x._indices().tolist(), "size": list(x.shape),
                    "coalesced": x.is_coalesced(), "dtype": str(x.dtype), "values": encode(x._values().detach(), torch)}
        return {"dtype": str(x.dtype), "shape": list(x.shape), "values": x.detach().tolist()}
    if isinstance(x, (tuple, list)):
        return {"seq": [encode(y, torch) for y in x]}
    if isinstance(x, (bool, int, float, str)) or x is None:
        return {"value": x}
    return {"value": repr(x)}


def run(code: str, torch) -> dict:
    scope = {"torch": torch}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(code, scope)
    return scope["out"]


def raised(code: str, torch) -> dict:
    try:
        run(code + "\nout = None", torch)
    except Exception as e:  # noqa: BLE001 - the type is what is recorded
        return {"type": type(e).__name__, "message": str(e)}
    return {"type": None, "message": None}


def main() -> None:
    import torch
    assert torch.__version__.startswith("2.13.0"), torch.__version__
    cases = [{"id": c[0], "out": encode(run(c[1], torch), torch)} for c in CASES]
    errors = []
    for e in ERRORS:
        got = raised(e[1], torch)
        assert got["type"] is not None, f"{e[0]}: PyTorch did not raise"
        errors.append({"id": e[0], **got})
    data = {"torch": torch.__version__, "cases": cases, "errors": errors}
    (HERE / "sparse.json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"sparse.json: {len(cases)} cases, {len(errors)} errors")


if __name__ == "__main__":
    main()
