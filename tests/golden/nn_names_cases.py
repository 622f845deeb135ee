"""Small nn names PyTorch 2.13 keeps for old code and for module authors: the deprecated ``nn.init`` functions
without the trailing underscore and ``nn.utils.clip_grad_norm`` (the new function plus a FutureWarning),
``nn.factory_kwargs`` and ``nn.utils.skip_init``; ``torch.testing.make_tensor`` (its values come from our generator,
so what is compared is their dtype, shape, bounds and layout) and the deprecated ``testing.assert_allclose``. The format is rnn_cases.py's; written by
generate_nn_names.py into nn_names.json, replayed by replay_nn_names.py (attributes on the device)."""
from __future__ import annotations

NUMERIC: list[tuple] = []
_OLD = ["uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform",
        "kaiming_normal", "orthogonal", "sparse"]
_ARGS = {"constant": ", 0.5", "sparse": ", 0.5"}
_SHAPE = {"dirac": "(2, 2, 3)"}

WARNINGS = [(f"nn.init.{n}", f"torch.nn.init.{n}(torch.empty{_SHAPE.get(n, '(3, 4)')}{_ARGS.get(n, '')})")
            for n in _OLD] + [
    ("nn.utils.clip_grad_norm", "p = torch.nn.Parameter(torch.ones(2))\np.grad = torch.tensor([3., 4.])\n"
     "torch.nn.utils.clip_grad_norm([p], 1.0)"),
    ("testing.assert_allclose", "torch.testing.assert_allclose(torch.tensor([1.0]), [1.00001])"),
    ("make_tensor low == high", "torch.testing.make_tensor(3, dtype=torch.float32, device='cpu', low=2, high=2)"),
]

ERRORS = [
    ("factory_kwargs unknown key", "torch.nn.factory_kwargs({'device': 'cpu', 'bias': True})"),
    ("factory_kwargs twice", "torch.nn.factory_kwargs({'dtype': torch.float32, 'factory_kwargs': {'dtype': torch.float64}})"),
    ("skip_init not a module", "torch.nn.utils.skip_init(int)"),
    ("make_tensor integer requires_grad", "torch.testing.make_tensor(2, dtype=torch.int32, device='cpu', requires_grad=True)"),
    ("make_tensor low >= high", "torch.testing.make_tensor(2, dtype=torch.float32, device='cpu', low=3, high=1)"),
    ("make_tensor outside uint8", "torch.testing.make_tensor(2, dtype=torch.uint8, device='cpu', low=-5, high=-1)"),
    ("make_tensor nan", "torch.testing.make_tensor(2, dtype=torch.float32, device='cpu', low=float('nan'))"),
    ("assert_allclose mismatch", "torch.testing.assert_allclose(torch.tensor([1.0, 2.0]), [1.0, 2.1])"),
    ("skip_init without device", "class M(torch.nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
     "torch.nn.utils.skip_init(M, 3)"),
]

REPRS = ["torch.nn.factory_kwargs({'device': 'cpu', 'factory_kwargs': {'dtype': torch.float64}})",
         "torch.nn.factory_kwargs(None)"]
STRUCTURE: list[str] = []

ATTRIBUTES = [
    ("torch.nn.init.constant(torch.empty(2, 3), 0.25)", "m.tolist()"),
    ("torch.nn.init.eye(torch.empty(2, 3))", "m.tolist()"),
    ("torch.nn.init.dirac(torch.empty(2, 2, 3))", "m.tolist()"),
    ("(lambda p: (setattr(p, 'grad', torch.tensor([3., 4.])), torch.nn.utils.clip_grad_norm([p], 1.0), p)[1:])"
     "(torch.nn.Parameter(torch.zeros(2)))", "[m[0].item(), [round(v, 6) for v in m[1].grad.tolist()]]"),
    ("torch.nn.utils.skip_init(torch.nn.Linear, 5, 2)",
     "[type(m).__name__, list(m.weight.shape), list(m.bias.shape), m.weight.device.type, m.weight.requires_grad]"),
    ("torch.nn.utils.skip_init(torch.nn.Conv2d, in_channels=2, out_channels=3, kernel_size=3, bias=False)",
     "[list(m.weight.shape), m.bias is None, m.weight.device.type]"),
]

_MT = "torch.testing.make_tensor"
_FACTS = "[str(m.dtype), list(m.shape), m.is_contiguous(), m.requires_grad]"
ATTRIBUTES += [
    (f"{_MT}(2, 3, dtype=torch.float32, device=torch.get_default_device(), low=-1, high=1)", _FACTS + " + [bool(((m >= -1) & (m < 1)).all())]"),
    (f"{_MT}((40,), dtype=torch.float32, device=torch.get_default_device())", _FACTS + " + [bool(((m >= -9) & (m < 9)).all())]"),
    (f"{_MT}(50, dtype=torch.int64, device=torch.get_default_device())", _FACTS + " + [bool(((m >= -9) & (m < 10)).all())]"),
    (f"{_MT}(50, dtype=torch.uint8, device=torch.get_default_device(), low=-3, high=4)", _FACTS + " + [bool((m < 4).all())]"),
    (f"{_MT}(30, dtype=torch.bool, device=torch.get_default_device())", _FACTS),
    (f"{_MT}(3, 4, dtype=torch.float32, device=torch.get_default_device(), noncontiguous=True)", _FACTS + " + [list(m.stride())]"),
    (f"{_MT}([1], dtype=torch.float32, device=torch.get_default_device(), noncontiguous=True)", _FACTS),
    (f"{_MT}(60, dtype=torch.int32, device=torch.get_default_device(), low=0, high=2, exclude_zero=True)", _FACTS + " + [m.tolist() == [1] * 60]"),
    (f"{_MT}(2, 2, dtype=torch.float64, device=torch.get_default_device(), requires_grad=True)", _FACTS),
    (f"{_MT}(3, dtype=torch.float32, device=torch.get_default_device(), low=-1e39, high=-3e38)", _FACTS + " + [bool((m < -2.9e38).all())]"),
]
