"""numpy's keyword spellings that PyTorch's bound ops take (its argument parser's numpy_compatibility_arg_names:
``axis`` for ``dim``, ``keepdims`` for ``keepdim``): ``x.sum(axis=1, keepdims=True)`` is ``x.sum(dim=1,
keepdim=True)`` for every torch function and Tensor method with those parameters, but not for the Python
functions of ``nn.functional``. The format is rnn_cases.py's: ATTRIBUTES run on the device
(``m`` is the first expression's value, the second is compared), ERRORS give PyTorch's exception and text.
Written by generate_numpy_kw.py into numpy_kw.json; replay_numpy_kw.py replays it."""
from __future__ import annotations

NUMERIC: list[tuple] = []
X = "torch.tensor([[3., -1., 2., 0.5], [4., 4., -6., 1.], [0., 2., 2., -3.]])"
I = "torch.tensor([[3, 1, 2], [0, 5, 5]])"

_EXPRS = [
    f"{X}.sum(axis=1)", f"torch.sum({X}, axis=0, keepdims=True)", f"{X}.sum(axis=(0, 1))",
    f"{X}.mean(axis=-1, keepdims=True)", f"torch.mean({X}, axis=0)", f"{X}.prod(axis=0)",
    f"{X}.std(axis=1)", f"torch.var({X}, axis=0, keepdims=True)", f"{X}.amax(axis=1)", f"torch.amin({X}, axis=0)",
    f"list({X}.max(axis=1))", f"list(torch.min({X}, axis=0, keepdims=True))", f"{X}.argmax(axis=1)",
    f"torch.argmin({X}, axis=0, keepdims=True)", f"({X} > 0).all(axis=1)", f"torch.any({X} > 3, axis=0)",
    f"{X}.logsumexp(axis=1)", f"torch.nansum({X}, axis=1)", f"list({X}.median(axis=1))", f"list({I}.mode(axis=1))",
    f"torch.count_nonzero({X}, axis=0)", f"{X}.norm(dim=1)", f"{X}.cumsum(axis=1)", f"torch.cumprod({X}, axis=0)",
    f"list({X}.cummax(axis=1))", f"{X}.softmax(axis=0)", f"{X}.log_softmax(axis=1)",
    f"torch.cat([{X}, {X}], axis=1)", f"torch.concat([{X}, {X}], axis=0)", f"torch.stack([{X}, {X}], axis=2)",
    f"{X}[None].squeeze(axis=0)", f"{X}.unsqueeze(axis=1)", f"list({X}.sort(axis=0))", f"torch.argsort({X}, axis=1)",
    f"list({X}.topk(2, axis=0))", f"torch.gather({X}, 1, torch.tensor([[0], [2], [1]]))",
    f"{X}.gather(axis=1, index=torch.tensor([[0], [2], [1]]))", f"{X}.index_select(axis=1, index=torch.tensor([3, 0]))",
    f"{X}.narrow(axis=1, start=1, length=2)", f"list({X}.chunk(2, axis=1))", f"list({X}.unbind(axis=1))", f"list(torch.var_mean({X}, axis=1))", f"list(torch.std_mean({X}, axis=0, keepdims=True))",
    f"torch.quantile({X}, 0.5, axis=1)", f"{X}.nanmean(axis=0)", f"torch.diff({X}, axis=1)",
    f"torch.flip({X}, dims=(0,))", f"{X}.cumsum_(axis=0)", f"{I}.sum(axis=1)", f"torch.logcumsumexp({X}, axis=1)",
]
# values to 4 decimals: exp and log may differ from PyTorch's in the last bit (their own goldens check them)
_R = "torch.round(t.double(), decimals=4).tolist()"
ATTRIBUTES = [(e, f"[{_R} for t in ([m] if isinstance(m, torch.Tensor) else m)]") for e in _EXPRS]

ERRORS: list[tuple] = [
    ("axis and dim", f"{X}.sum(dim=1, axis=1)"),
    ("axis and a positional dim", f"{X}.sum(1, axis=1)"),
    ("keepdims and keepdim", f"torch.mean({X}, 0, keepdim=True, keepdims=True)"),
    ("torch.sum axis and dim", f"torch.sum({X}, 0, axis=0)"),
    ("nn.functional takes no axis", f"torch.nn.functional.softmax({X}, axis=1)"),
    ("transpose has no axis", f"{X}.transpose(axis=0)", "type"),
    # PyTorch's ops written in Python (torch/functional.py, torch/_tensor.py) take no numpy spellings
    ("Tensor.split is Python", f"{X}.split(1, axis=0)", "type"),
    ("torch.split is Python", f"torch.split({X}, 1, axis=0)", "type"),
    ("Tensor.norm is Python", f"{X}.norm(axis=1)", "type"),
    ("torch.norm is Python", f"torch.norm({X}, axis=1)", "type"),
    ("torch.unique is Python", f"torch.unique({I}, axis=0)", "type"),
    ("Tensor.unique_consecutive is Python", f"{I}.unique_consecutive(axis=1)", "type"),
    ("Tensor.unflatten is Python", f"{X}.unflatten(axis=1, sizes=(2, 2))", "type"),
]

WARNINGS: list[tuple] = []
REPRS = [f"{X}.max(axis=1)", f"torch.sum({X}, axis=1, keepdims=True)"]
STRUCTURE: list[str] = []
