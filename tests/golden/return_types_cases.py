"""What tests/golden/generate_return_types.py asks real PyTorch about ``torch.return_types`` (the named tuples of
max(dim), min(dim), median, mode, sort, topk,
kthvalue, aminmax, cummax and cummin): how they print, what they are, what their constructors refuse.
The format is rnn_cases.py's (read its docstring); there are no NUMERIC cases: the values come from the ops'
own goldens."""
from __future__ import annotations

NUMERIC: list[tuple] = []

REPRS = [
    "torch.tensor([[1., 5., 2.], [3., 0., 4.]]).max(1)",
    "torch.max(torch.tensor([[1., 5.], [3., 0.]]), 0, keepdim=True)",
    "torch.tensor([[1., 5., 2.], [3., 0., 4.]]).min(dim=1)",
    "torch.tensor(3.).max(0)",
    "torch.tensor([3, 1, 2]).sort(descending=True)",
    "torch.sort(torch.tensor([[0.5, -1.0], [2.0, 1.5]]))",
    "torch.tensor([3., 1., 2., 7.]).topk(2)",
    "torch.topk(torch.tensor([[3., 1.], [2., 7.]]), 1, largest=False)",
    "torch.tensor([3., 1., 2.]).median(0)",
    "torch.tensor([[3, 1, 1], [2, 2, 5]]).mode(1)",
    "torch.return_types.max((torch.ones(1), torch.zeros(1)))",
    "torch.return_types.sort([1, 'two'])",
    "str(torch.tensor([1., 2.]).min(0))",
    "[torch.tensor([2., 1.]).sort()]",
    "torch.kthvalue(torch.tensor([[1., 3., 2.], [5., 4., 0.]]), 2)",
    "torch.tensor([[1., 3.], [5., 4.]], requires_grad=True).kthvalue(1, 0, keepdim=True)",
    "torch.aminmax(torch.tensor([[1., 3., 2.], [5., 4., 0.]]))",
    "torch.tensor([[1., 3., 2.], [5., 4., 0.]], requires_grad=True).aminmax(dim=1)",
    "torch.cummax(torch.tensor([1., 3., 2., 3., 5.]), 0)",
    "torch.tensor([[3, 1, 2], [0, 5, -1]]).cummin(1)",
    "torch.tensor([1., 3., 2.], requires_grad=True).cummin(0)",
    "torch.return_types.aminmax((torch.zeros(1), torch.ones(1)))",
    "torch.frexp(torch.tensor([8., -3.5, 0.]))",
    "torch.tensor([[1.5, -0.25], [1e10, 3.]], requires_grad=True).frexp()",
]

ERRORS: list[tuple] = [
    ("constructor length", "torch.return_types.max((1, 2, 3))"),
    ("constructor too short", "torch.return_types.sort([1])"),
    ("field is read-only", "r = torch.tensor([1., 2.]).max(0)\nr.values = torch.zeros(())"),
    ("field cannot be deleted", "r = torch.tensor([1., 2.]).topk(1)\ndel r.indices"),
    ("aminmax field is read-only", "r = torch.tensor([1., 2.]).aminmax()\nr.max = torch.zeros(())"),
    ("kthvalue constructor length", "torch.return_types.kthvalue((1,))"),
    ("frexp field is read-only", "r = torch.frexp(torch.tensor([1.]))\nr.mantissa = torch.zeros(())"),
]

WARNINGS: list[tuple] = []
STRUCTURE: list[str] = []

ATTRIBUTES = [
    ("torch.tensor([[1., 5., 2.], [3., 0., 4.]]).max(1)",
     "[type(m).__name__, isinstance(m, tuple), len(m), m.values.tolist(), m.indices.tolist(), m[1].tolist(), "
     "type(m[:1]).__name__, type(m).n_fields, type(m).n_sequence_fields, type(m).n_unnamed_fields, "
     "isinstance(m, torch.return_types.max), m == tuple(m), [type(t).__name__ for t in m]]"),
    ("torch.tensor([3., 1., 2.]).median(0)",
     "[type(m).__name__, isinstance(m, torch.return_types.median), hasattr(m, '_fields'), hasattr(m, '_asdict')]"),
    ("torch.tensor([3, 1, 1]).mode()", "[type(m).__name__, isinstance(m, torch.return_types.mode)]"),
    ("torch.tensor([3, 1, 1]).sort()", "[type(m).__name__, isinstance(m, torch.return_types.sort)]"),
    ("torch.tensor([3., 1., 1.]).topk(2)", "[type(m).__name__, isinstance(m, torch.return_types.topk)]"),
    ("torch.tensor([3., 1., 1.]).min(0)", "[type(m).__name__, isinstance(m, torch.return_types.min)]"),
    ("torch.tensor([3., 1., 2.]).kthvalue(2)",
     "[type(m).__name__, isinstance(m, torch.return_types.kthvalue), m.values.item(), m.indices.item()]"),
    ("torch.tensor([3., 1., 2.]).aminmax()",
     "[type(m).__name__, isinstance(m, torch.return_types.aminmax), m.min.item(), m.max.item(), len(m)]"),
    ("torch.tensor([3., 1., 2.]).cummax(0)",
     "[type(m).__name__, isinstance(m, torch.return_types.cummax), m.indices.tolist()]"),
    ("torch.tensor([3., 1., 2.]).cummin(0)",
     "[type(m).__name__, isinstance(m, torch.return_types.cummin), m.values.tolist()]"),
    ("torch.tensor([3., 1., 2.], requires_grad=True).cummax(0)",
     "[m.values.grad_fn.name(), m.indices.requires_grad]"),
    ("torch.tensor([3., 1., 2.], requires_grad=True).kthvalue(1)", "[m.values.grad_fn.name()]"),
    ("torch.tensor([3., 1., 2.], requires_grad=True).aminmax()",
     "[m.min.grad_fn.name(), m.min.grad_fn is m.max.grad_fn]"),
]
