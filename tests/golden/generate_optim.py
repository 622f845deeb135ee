"""Record PyTorch's results for the ``torch.optim`` scenarios and bad inputs:
``python tests/golden/generate_optim.py`` (needs torch==2.13.0; writes tests/golden/optim.json from
optim_cases.py, tests/golden/optim_more.json from optim_more_cases.py and tests/golden/nn_mod.json from
nn_mod_cases.py)."""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from golden_io import encode  # noqa: E402
import optim_cases  # noqa: E402
import optim_more_cases  # noqa: E402
import nn_mod_cases  # noqa: E402


def plain(v):
    """A value as JSON holds it (tuples become lists, dict keys strings, inf stays inf)."""
    return json.loads(json.dumps(v))


def value_spec(v, exact=None):
    """``exact`` is the same result from a float64 run: where PyTorch's float32 trajectory is
    measurably off it (cancellation, as in a momentum buffer that sums terms of opposite sign), the
    distance is stored as ``dev`` and the replay accepts a result no further from the exact one."""
    if isinstance(v, torch.Tensor):
        got = v.detach().numpy()
        spec = encode(got)
        if isinstance(exact, torch.Tensor) and got.dtype == np.float32:
            dev = np.abs(got.astype(np.float64) - exact.detach().numpy().astype(np.float64))
            if (dev > 1e-6 * np.abs(got) + 1e-8).any():
                spec["dev"] = encode(dev.astype(np.float32))
        return {"tensor": spec}
    return {"value": plain(v)}


def run(prelude: str, snippet: str, dtype) -> list:
    torch.set_default_dtype(dtype)
    try:
        env = {"torch": torch, "dev": "cpu"}
        exec(prelude + snippet, env)  # noqa: S102 - our own list
        return env["result"]
    finally:
        torch.set_default_dtype(torch.float32)


SIGNATURES = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Optimizer", "Optimizer.zero_grad", "Optimizer.step",
              "Optimizer.add_param_group", "Optimizer.load_state_dict"] + [
    "lr_scheduler." + n for n in ("LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR",
                                  "LinearLR", "ExponentialLR", "SequentialLR", "PolynomialLR", "CosineAnnealingLR",
                                  "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts",
                                  "OneCycleLR", "LRScheduler.step", "ReduceLROnPlateau.step")]


def signature(path: str) -> list:
    """[name, kind, repr(default) or None] per parameter of torch.optim.<path> (its __init__ for a class)."""
    import inspect
    obj = torch.optim
    for part in path.split("."):
        obj = getattr(obj, part)
    fn = obj.__init__ if inspect.isclass(obj) else obj
    return [[p.name, p.kind.name, None if p.default is p.empty else repr(p.default)]
            for p in inspect.signature(fn).parameters.values()]


def write(cases_module, signatures: list, name: str) -> None:
    prelude = cases_module.PRELUDE
    cases = []
    for case, snippet in cases_module.OPTIM_SNIPPETS:
        try:
            result, exact = run(prelude, snippet, torch.float32), run(prelude, snippet, torch.float64)
        except Exception as e:
            raise SystemExit(f"{name} {case}: {type(e).__name__}: {e}") from e
        cases.append([case, snippet, [value_spec(v, e) for v, e in zip(result, exact)]])
    errors = []
    for case, snippet in cases_module.OPTIM_ERRORS:
        try:
            exec(snippet, {"torch": torch, "dev": "cpu"})  # noqa: S102 - our own list
        except Exception as e:  # noqa: BLE001
            errors.append([case, snippet, {"type": type(e).__name__, "message": str(e)}])
            continue
        raise SystemExit(f"{case}: PyTorch did not raise; every error snippet must be bad input")
    sigs = {path: signature(path) for path in signatures}
    doc = {"torch": torch.__version__, "prelude": prelude, "cases": cases, "errors": errors, "signatures": sigs}
    (HERE / name).write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{name}: {len(cases)} optim scenarios and {len(errors)} error cases written")


def main() -> None:
    """``generate_optim.py [optim.json optim_more.json nn_mod.json]``: all three files, or the ones named."""
    warnings.simplefilter("ignore")  # deprecation notes PyTorch prints for step(epoch) and the like
    files = [(optim_cases, SIGNATURES, "optim.json"),
             (optim_more_cases, optim_more_cases.SIGNATURES, "optim_more.json"),
             (nn_mod_cases, nn_mod_cases.SIGNATURES, "nn_mod.json")]  # issue 11's modules, utils and Adafactor
    for cases, sigs, name in files:
        if len(sys.argv) < 2 or name in sys.argv[1:]:
            write(cases, sigs, name)


if __name__ == "__main__":
    main()
