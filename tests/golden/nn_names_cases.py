"""Small nn names PyTorch 2.13 keeps for old code and for module authors: the deprecated ``nn.init`` functions
without the trailing underscore and ``nn.utils.clip_grad_norm`` (the new function plus a FutureWarning),
``nn.factory_kwargs`` and ``nn.utils.skip_init``. The format is rnn_cases.py's; written by
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
]

ERRORS = [
    ("factory_kwargs unknown key", "torch.nn.factory_kwargs({'device': 'cpu', 'bias': True})"),
    ("factory_kwargs twice", "torch.nn.factory_kwargs({'dtype': torch.float32, 'factory_kwargs': {'dtype': torch.float64}})"),
    ("skip_init not a module", "torch.nn.utils.skip_init(int)"),
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
