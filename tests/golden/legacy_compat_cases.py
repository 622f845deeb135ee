"""``torch.autograd.Variable`` and the ``torch.cuda.*Tensor`` types, as the upstream examples and tutorials use
them: one expression each, run with ``torch`` bound to real PyTorch (generate_legacy_compat.py records the
result, the warnings and PyTorch's exception) and to borch_webgpu (replay_legacy_compat.py). ``dev`` is the
device tensors are made on. Cases marked NO_GPU hold only where no GPU exists (PyTorch's CPU build; here: no
WebGPU): on WebGPU ``torch.cuda.*Tensor`` make tensors there instead (GPU_CASES, checked against the values
PyTorch gives for the same data)."""

NO_GPU = "no-gpu"
V = "torch.autograd.Variable"
CASES = [
    ("Variable()", f"{V}()"),
    ("Variable(t)", f"{V}(torch.tensor([1., 2.], device=dev))"),
    ("requires_grad keyword", f"{V}(torch.tensor([1., 2.], device=dev), requires_grad=True)"),
    ("requires_grad positional", f"{V}(torch.tensor([1., 2.], device=dev), True)"),
    ("a result becomes a leaf", f"{V}(torch.ones(2, requires_grad=True, device=dev) * 2)"),
    ("a leaf keeps no requires_grad", f"{V}(torch.ones(2, requires_grad=True, device=dev))"),
    ("shares the data", f"(lambda t: ({V}(t).add_(1), t)[1])(torch.zeros(2, device=dev))"),
    ("gradient reaches it", f"(lambda v: ((v * 3).sum().backward(), v.grad)[1])"
                            f"({V}(torch.ones(2, device=dev), requires_grad=True))"),
    ("used in a model", f"torch.nn.functional.relu({V}(torch.tensor([-1., 2.], device=dev)))"),
    ("every tensor is a Variable", f"isinstance(torch.ones(1, device=dev), {V})"),
    ("it is a Tensor", f"type({V}(torch.ones(1, device=dev))) is torch.Tensor"),
    ("a list is refused", f"{V}([1, 2])"),
    ("an int is refused", f"{V}(3)"),
    ("volatile warns", f"{V}(torch.ones(2, device=dev), volatile=True)"),
    ("volatile and requires_grad", f"{V}(torch.ones(2, device=dev), True, True)"),
    ("unknown keyword", f"{V}(torch.ones(2, device=dev), foo=1)"),
    ("int tensor requires_grad", f"{V}(torch.tensor([1, 2], device=dev), requires_grad=True)"),
    ("FloatTensor data", "torch.FloatTensor([1, 2])"),
    ("LongTensor data", "torch.LongTensor([3, 4])"),
    ("DoubleTensor data", "torch.DoubleTensor([0.5])"),
    ("cuda FloatTensor is not a cpu tensor", "isinstance(torch.zeros(1, device='cpu'), torch.cuda.FloatTensor)"),
    ("cuda LongTensor is not a cpu tensor",
     "isinstance(torch.zeros(1, dtype=torch.int64, device='cpu'), torch.cuda.LongTensor)"),
    ("cuda FloatTensor dtype", "torch.cuda.FloatTensor.dtype"),
    ("cuda FloatTensor(2) without a GPU", "torch.cuda.FloatTensor(2)", NO_GPU),
    ("cuda LongTensor(data) without a GPU", "torch.cuda.LongTensor([1])", NO_GPU),
    ("cuda DoubleTensor() without a GPU", "torch.cuda.DoubleTensor()", NO_GPU),
]
# on WebGPU: (id, expression, the CASES id whose PyTorch value it must equal)
GPU_CASES = [
    ("cuda FloatTensor(data)", "torch.cuda.FloatTensor([1, 2])", "FloatTensor data"),
    ("cuda LongTensor(data)", "torch.cuda.LongTensor([3, 4])", "LongTensor data"),
    ("cuda DoubleTensor(data)", "torch.cuda.DoubleTensor([0.5])", "DoubleTensor data"),
]


def describe(r):
    """A result as JSON: a tensor's values, dtype and autograd flags; a Python value as itself."""
    if hasattr(r, "tolist") and hasattr(r, "dtype") and hasattr(r, "requires_grad"):
        return {"value": r.detach().tolist(), "dtype": str(r.dtype), "requires_grad": bool(r.requires_grad),
                "is_leaf": bool(r.is_leaf)}
    if hasattr(r, "is_floating_point"):   # a dtype
        return {"py": str(r)}
    return {"py": r}


def run(torch, expr: str, dev: str) -> dict:
    """Evaluate one case: its description, or the exception's type and message; the warnings it gave."""
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = describe(eval(expr, {"torch": torch, "dev": dev}))  # noqa: S307 - our own list
        except Exception as e:  # noqa: BLE001 - PyTorch's refusal is the golden
            out = {"raises": type(e).__name__, "message": str(e)}
    out["warnings"] = [[w.category.__name__, str(w.message)] for w in caught
                       if not issubclass(w.category, DeprecationWarning)]
    return out
