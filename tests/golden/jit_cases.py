"""torch.jit scenarios, written once for both sides: ``record(torch, ...)`` runs them with real PyTorch
2.13 (generate_jit.py, which freezes the answers in jit.json) and with borch_webgpu (replay_jit.py, on
cpu or webgpu), and returns the same dict of answers: outputs of traced, scripted and saved-then-loaded
modules and functions on the example input and on a new input of another batch size, state_dict keys,
the class names, is_scripting()/is_tracing(), the TracerWarnings of frozen Python values, BatchNorm
state after a train-mode trace (check_trace runs forward five times), and exception types and messages
for bad inputs."""
from __future__ import annotations

import io
import warnings

import numpy as np

from golden_io import formula

# (name, example shape, new shape)
MODELS = [("mlp", (2, 4), (5, 4)), ("cnn", (2, 2, 4, 4), (3, 2, 4, 4))]
# a message check is exact for these; the others record the exception type only (Python or kernel text)
EXACT_MESSAGES = {"trace_no_inputs", "trace_empty_tuple", "freeze_plain", "freeze_train", "optimize_plain",
                  "trace_int_input", "trace_none_input"}


def classes(torch):
    nn = torch.nn

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(4, 8)
            self.fc2 = nn.Linear(8, 3)

        def forward(self, x):
            return self.fc2(torch.relu(self.fc1(x)))

    class CNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 4, 3, padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.fc = nn.Linear(4 * 4 * 4, 5)

        def forward(self, x):
            y = torch.relu(self.bn(self.conv(x)))
            return self.fc(y.view(y.size(0), -1))

    return {"mlp": MLP, "cnn": CNN}


def _f(torch):
    def f(x, y):
        return x * y + torch.sin(x).sum(dim=-1, keepdim=True)
    return f


def _branchy(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


def conversions(torch):
    """Functions whose Python use of a tensor value is frozen by a trace (one TracerWarning each)."""
    return {
        "bool": _branchy,
        "item": lambda x: x * x.sum().item(),
        "int": lambda x: x * int(x.sum()),
        "float": lambda x: x * float(x.sum()),
        "len": lambda x: x * len(x),
        "tolist": lambda x: x * x.tolist()[0],
        "iter": lambda x: sum(x),
    }


def data(shape, seed):
    return formula(shape, "float32", seed)


def _np(t):
    if isinstance(t, (tuple, list)):
        return [_np(v) for v in t]
    return np.array(t.detach().cpu().numpy())   # a copy: on cpu .numpy() is a view that later steps write


def _err(fn):
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - the type is the answer
        return {"type": type(e).__name__, "message": str(e)}
    return {"type": None, "result": type(r).__name__}


def _tracer_warnings(caught) -> list:
    return [str(w.message) for w in caught if w.category.__name__ == "TracerWarning"]


def record(torch, device: str = "cpu", weights: dict | None = None) -> dict:
    """Every answer, keyed by a name; ``weights`` (name -> {key: array}) replaces the random init."""
    out: dict = {}
    t = lambda a: torch.from_numpy(np.array(a)).to(device)  # noqa: E731
    cls = classes(torch)
    state: dict = {}
    for name, ex_shape, new_shape in MODELS:
        m = cls[name]()
        if weights is not None:
            m.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in weights[name].items()})
        m = m.to(device).eval()
        state[name] = {k: _np(v) for k, v in m.state_dict().items()}
        ex, new = t(data(ex_shape, 1)), t(data(new_shape, 2))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            traced = torch.jit.trace(m, ex)
            scripted = torch.jit.script(m)
            buf = io.BytesIO()
            torch.jit.save(traced, buf)
            buf.seek(0)
            loaded = torch.jit.load(buf, map_location=device)
            buf = io.BytesIO()
            torch.jit.save(scripted, buf)
            buf.seek(0)
            loaded_scripted = torch.jit.load(buf, map_location=device)
        with torch.no_grad():
            out[f"{name}/eager_example"] = _np(m(ex))
            out[f"{name}/eager_new"] = _np(m(new))
            out[f"{name}/traced_example"] = _np(traced(ex))
            out[f"{name}/traced_new"] = _np(traced(new))
            out[f"{name}/scripted_new"] = _np(scripted(new))
            out[f"{name}/loaded_new"] = _np(loaded(new))
            out[f"{name}/loaded_scripted_new"] = _np(loaded_scripted(new))
            out[f"{name}/tuple_example_new"] = _np(torch.jit.trace(m, (ex,), check_trace=False)(new))
            out[f"{name}/list_example_new"] = _np(torch.jit.trace(m, [ex], check_trace=False)(new))
        out[f"{name}/traced_state_dict_keys"] = list(traced.state_dict())
        out[f"{name}/traced_named_parameters"] = [n for n, _ in traced.named_parameters()]
        out[f"{name}/loaded_state_dict_keys"] = list(loaded.state_dict())
        out[f"{name}/types"] = [type(traced).__name__, type(scripted).__name__, type(loaded).__name__]
        out[f"{name}/is_module"] = [isinstance(traced, torch.nn.Module), isinstance(traced, torch.jit.ScriptModule),
                                    isinstance(scripted, torch.jit.ScriptModule),
                                    isinstance(loaded, torch.jit.ScriptModule)]
        out[f"{name}/shares_parameters"] = all(a is b for a, b in zip(traced.parameters(), m.parameters()))
        traced.train()
        out[f"{name}/train_flags"] = [traced.training, m.training]
    out["state"] = state

    # a CNN traced in train mode: the trace and check_trace's four runs each update BatchNorm
    for check in (True, False):
        m = cls["cnn"]()   # the weights of the eval-mode CNN above, fresh BatchNorm statistics
        m.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in state["cnn"].items()})
        m = m.to(device).train()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            traced = torch.jit.trace(m, t(data((2, 2, 4, 4), 3)), check_trace=check)
        key = f"cnn_train/check_{check}"
        out[key + "/num_batches_tracked"] = int(m.bn.num_batches_tracked)
        out[key + "/running_mean"] = _np(m.bn.running_mean)
        out[key + "/running_var"] = _np(m.bn.running_var)
        with torch.no_grad():
            out[key + "/traced_train_output"] = _np(traced(t(data((3, 2, 4, 4), 4))))

    # a trace freezes the training flags it saw: traced in eval then .train(), traced in train then .eval()
    for traced_in, switch in (("eval", "train"), ("train", "eval")):
        m = cls["cnn"]()
        m.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in state["cnn"].items()})
        m = m.to(device).train(traced_in == "train")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            traced = torch.jit.trace(m, t(data((2, 2, 4, 4), 3)), check_trace=False)
            getattr(traced, switch)()
            buf = io.BytesIO()
            torch.jit.save(traced, buf)
            buf.seek(0)
            loaded = torch.jit.load(buf, map_location=device)
            getattr(loaded, switch)()
        key = f"frozen_mode/{traced_in}_then_{switch}"
        with torch.no_grad():
            out[key + "/output"] = _np(traced(t(data((3, 2, 4, 4), 4))))
            out[key + "/loaded_output"] = _np(loaded(t(data((3, 2, 4, 4), 4))))
        out[key + "/flags"] = [traced.training, traced.bn.training, m.training, loaded.training]
        out[key + "/num_batches_tracked"] = int(m.bn.num_batches_tracked)

    # a function of two tensors
    f = _f(torch)
    ex = (t(data((3, 4), 5)), t(data((3, 4), 6)))
    new = (t(data((6, 4), 7)), t(data((6, 4), 8)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tf, sf = torch.jit.trace(f, ex), torch.jit.script(f)
        buf = io.BytesIO()
        torch.jit.save(tf, buf)
        buf.seek(0)
        lf = torch.jit.load(buf, map_location=device)
    out["f/eager_new"] = _np(f(*new))
    out["f/traced_example"] = _np(tf(*ex))
    out["f/traced_new"] = _np(tf(*new))
    out["f/scripted_new"] = _np(sf(*new))
    out["f/loaded_new"] = _np(lf(*new))
    out["f/types"] = [type(tf).__name__, type(sf).__name__, type(lf).__name__]
    out["f/name"] = [tf.name, sf.name]

    # frozen Python values: the TracerWarning and the traced function on an input that would go elsewhere
    for name, fn in conversions(torch).items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            g = torch.jit.trace(fn, t(np.ones(3, np.float32)), check_trace=False)
        out[f"frozen/{name}/warnings"] = _tracer_warnings(caught)
        out[f"frozen/{name}/new"] = _np(g(t(np.array([-1.0, -2.0, 4.0], np.float32))))

    # is_scripting / is_tracing, and check_trace's warning when the trace and the Python code differ
    seen: list = []

    def probe(x):
        seen.append((torch.jit.is_tracing(), torch.jit.is_scripting()))
        return x + float(torch.jit.is_tracing())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tp = torch.jit.trace(probe, t(np.zeros(2, np.float32)))
    out["probe/outside"] = [torch.jit.is_tracing(), torch.jit.is_scripting()]
    out["probe/during"] = [list(s) for s in seen]
    out["probe/traced"] = _np(tp(t(np.zeros(2, np.float32))))
    out["probe/check_warnings"] = [w.split("\n")[0] for w in _tracer_warnings(caught)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.jit.trace(lambda x: x + 1, t(np.zeros(2, np.float32)))
        sb = torch.jit.script(_branchy)
    out["deprecations"] = sorted({str(w.message) for w in caught if w.category is DeprecationWarning})

    out["scripted_branchy"] = [_np(sb(t(np.ones(2, np.float32)))), _np(sb(t(-np.ones(2, np.float32))))]

    # fork / wait, annotate
    fut = torch.jit.fork(f, *ex)
    out["fork/wait"] = _np(torch.jit.wait(fut))
    out["fork/type"] = type(fut).__name__
    out["annotate"] = torch.jit.annotate(int, 3)

    # bad inputs
    mlp = cls["mlp"]().to(device)
    x = t(data((2, 4), 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["errors"] = {
            "trace_no_inputs": _err(lambda: torch.jit.trace(mlp)),
            "trace_empty_tuple": _err(lambda: torch.jit.trace(mlp, ())),
            "trace_dict_input": _err(lambda: torch.jit.trace(mlp, {"x": x})),
            "trace_int_input": _err(lambda: torch.jit.trace(lambda a, b: a * b, (x, 3))),
            "trace_none_input": _err(lambda: torch.jit.trace(lambda a, b: a, (x, None))),
            "trace_mixed_list": _err(lambda: torch.jit.trace(lambda a, b: a, (x, [x, 1]))),
            "freeze_plain": _err(lambda: torch.jit.freeze(mlp)),
            "freeze_train": _err(lambda: torch.jit.freeze(torch.jit.script(mlp.train()))),
            "optimize_plain": _err(lambda: torch.jit.optimize_for_inference(mlp)),
            "save_plain": _err(lambda: torch.jit.save(mlp, io.BytesIO())),
            "load_not_zip": _err(lambda: torch.jit.load(io.BytesIO(b"not a zip file at all"))),
        }
    return out
