"""Which registered ops PyTorch differentiates, asked of real PyTorch: ``python tests/golden/generate_differentiable.py``.

Each op's golden cases (cases.py) run with their float inputs requiring grad; the op is
differentiable when, in one of them, it gives an output a grad_fn of its own and backward through it
reaches an input with a nonzero gradient (so ``eq_``'s zero gradient and ``floor_divide``'s "not
implemented" do not count). Writes tests/golden/differentiable.json; tests/unit/test_registry.py then requires a gradient golden case
(``grad=True``) for every differentiable op, so an op cannot land without its backward being
checked against PyTorch. Needs torch==2.13.0 (the CPU build on this machine's disk).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from cases import GENERATORS  # noqa: E402
from generate import TORCH_VERSION, flat_outputs, resolve, to_torch  # noqa: E402

OUT = HERE / "differentiable.json"


def _grad_fns(x) -> set[int]:
    if isinstance(x, torch.Tensor):
        return {id(x.grad_fn)} if x.grad_fn is not None else set()
    if isinstance(x, (list, tuple)):
        return set().union(*[_grad_fns(i) for i in x]) if x else set()
    return set()


def _leaves(leaves):
    for leaf in leaves:
        if isinstance(leaf, list):
            yield from (x for x in leaf if x is not None)
        elif leaf is not None:
            yield leaf


def _has_backward(c: dict) -> bool | None:
    """True when this case's op gives its outputs a grad_fn of its own and backward through it
    reaches an input with a nonzero gradient; None when the case cannot ask (no float input)."""
    try:
        conv = [to_torch(a, True, False) for a in c["args"]]
    except Exception:  # noqa: BLE001
        return None
    leaves = [leaf for _, leaf in conv]
    if not any(True for _ in _leaves(leaves)):
        return None
    before = _grad_fns([v for v, _ in conv])
    kwargs = {k: to_torch(v, False)[0] for k, v in c["kwargs"].items()}
    try:
        fn, call_args = resolve(c["fn"], [v for v, _ in conv])
        if not callable(fn):
            fn, call_args = (lambda v: (lambda: v))(fn), []
        out = fn(*call_args, **kwargs)
    except Exception:  # noqa: BLE001 - an error case
        return None
    outs = [o for o in flat_outputs(out) if o.requires_grad and o.grad_fn is not None and id(o.grad_fn) not in before]
    if not outs:
        return False
    try:
        torch.autograd.backward(outs, [torch.ones_like(o) for o in outs])
    except RuntimeError:  # "derivative for aten::floor_divide is not implemented"
        return False
    return any(x.grad is not None and bool((x.grad != 0).any()) for x in _leaves(leaves))


def differentiable(op: str):
    """True when PyTorch has a backward for the op (some case, see _has_backward), False when none
    of its cases has one, None when no case has a float input to ask with."""
    answers = [_has_backward(c) for c in GENERATORS[op]() if not c.get("random")]
    if any(a is True for a in answers):
        return True
    return False if any(a is False for a in answers) else None


def main() -> None:
    assert torch.__version__.split("+")[0] == TORCH_VERSION, torch.__version__
    doc = {"torch": TORCH_VERSION, "ops": {op: differentiable(op) for op in sorted(GENERATORS)}}
    OUT.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT.relative_to(HERE.parent.parent)}: "
          f"{sum(v is True for v in doc['ops'].values())} differentiable of {len(doc['ops'])}")


if __name__ == "__main__":
    main()
