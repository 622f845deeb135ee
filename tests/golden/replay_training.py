"""Replay the frozen PyTorch training trajectory (generate_training.py) on borch_webgpu.

``python replay_training.py [--device cpu|webgpu]`` (in the browser through the runner with
``--mount tests/golden``). Prints the largest relative error of each compared quantity and exits
non-zero when one exceeds its tolerance.

Relative errors are norm-wise per tensor, ``|ours - torch| / |torch|``, the largest over the
tensors of a kind. Tolerance of each quantity (documented in README.md): the larger of a fixed
bound (float32 kernels that sum in another order than PyTorch's start ~1e-7..1e-6 apart) and
twice PyTorch's own noise floor, how far PyTorch's float32 run is from its float64 run on the same
quantity (the generator measures it). This configuration is chaotic: from step 7 on PyTorch's
float32 and float64 runs part ways, so past that point no float32 implementation can follow
PyTorch more closely than PyTorch follows itself.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

import borch_webgpu as torch  # noqa: E402
from borch_webgpu import nn  # noqa: E402
from borch_webgpu.serialization import read_numpy  # noqa: E402
from borch_webgpu.vision.models import resnet18_cifar  # noqa: E402

BASE = {
    "eval-mode logits of PyTorch's saved state dict": 1e-5,
    "loss, step 1": 1e-5,
    "loss, steps 1-6": 1e-5,
    "loss, steps 1-30": 1e-5,
    "gradients, step 1": 1e-4,
    "gradients, step 30": 1e-4,
    "gradients, step 30 from PyTorch's step-29 state": 1e-4,
    "BatchNorm running buffers, after step 30": 1e-4,
    "eval-mode logits, after step 30": 1e-4,
}


def rel(a, b) -> float:
    a, b = a.detach().to("cpu").float(), b.detach().to("cpu").float()
    den = float(b.norm().item())
    return float((a - b).norm().item()) / (den if den > 0 else 1.0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--compiled", action="store_true", help="run each step as torch.compile(train_step)")
    ns = ap.parse_args(argv)
    device = torch.device(ns.device) if ns.device else torch.get_default_device()
    path = HERE / "training" / "resnet18_cifar_w8.safetensors"
    ref = torch.load(path, map_location=device)
    floors = json.loads(read_numpy(path.read_bytes())[1]["float64_floors"])
    tolerances = {k: max(b, 2 * floors[k]) for k, b in BASE.items()}
    model = resnet18_cifar(num_classes=10, width=8).to(device)
    init = {k[len("init."):]: v for k, v in ref.items() if k.startswith("init.")}
    model.load_state_dict(init)
    model.eval()  # a state dict saved by PyTorch (safetensors.torch.save_file) reproduces its outputs
    with torch.no_grad():
        loaded_err = rel(model(ref["x_eval"]), ref["init_eval_logits"])
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    xs, ys = ref["xs"], ref["ys"]
    steps = xs.shape[0]
    errs = {k: 0.0 for k in BASE}
    errs["eval-mode logits of PyTorch's saved state dict"] = loaded_err
    t0 = time.perf_counter()
    model.train()

    def train_step(x, y):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss
    compiled = torch.compile(train_step, fullgraph=True) if ns.compiled else None
    for step in range(1, steps + 1):
        if compiled is not None:
            loss = compiled(xs[step - 1], ys[step - 1])  # the step's gradients stay in .grad after it
        else:
            opt.zero_grad()
            loss = loss_fn(model(xs[step - 1]), ys[step - 1])
            loss.backward()
        want = float(ref["losses"][step - 1].item())
        e = abs(loss.item() - want) / abs(want)
        if step == 1:
            errs["loss, step 1"] = e
        if step <= 6:
            errs["loss, steps 1-6"] = max(errs["loss, steps 1-6"], e)
        errs["loss, steps 1-30"] = max(errs["loss, steps 1-30"], e)
        if step in (1, steps):
            key = "gradients, step 1" if step == 1 else "gradients, step 30"
            for name, p in model.named_parameters():
                errs[key] = max(errs[key], rel(p.grad, ref[f"grad{step}.{name}"]))
        if compiled is None:
            opt.step()
    for name, b in model.named_buffers():
        if name.endswith(("running_mean", "running_var")):
            errs["BatchNorm running buffers, after step 30"] = max(errs["BatchNorm running buffers, after step 30"],
                                                                   rel(b, ref[f"final.{name}"]))
    model.eval()
    with torch.no_grad():
        errs["eval-mode logits, after step 30"] = rel(model(ref["x_eval"]), ref["eval_logits"])
    # step 30 again, started from PyTorch's own state after 29 steps: one step, no chaos
    fresh = resnet18_cifar(num_classes=10, width=8).to(device)
    prefix = f"state{steps - 1}."
    fresh.load_state_dict({k[len(prefix):]: v for k, v in ref.items() if k.startswith(prefix)})
    fresh.train()
    loss_fn(fresh(xs[steps - 1]), ys[steps - 1]).backward()
    key = "gradients, step 30 from PyTorch's step-29 state"
    for name, p in fresh.named_parameters():
        errs[key] = max(errs[key], rel(p.grad, ref[f"grad{steps}.{name}"]))
    dt = time.perf_counter() - t0
    failed = 0
    for k, tol in tolerances.items():
        ok = errs[k] <= tol
        failed += not ok
        print(f"training parity: {k}: largest relative error {errs[k]:.2e} (tolerance {tol:.1e}; PyTorch float32 "
              f"vs float64 {floors[k]:.1e}) {'ok' if ok else 'FAIL'}")
    how = f", compiled: {compiled.graphs} graph replayed" if compiled is not None else ""
    print(f"training parity: {len(tolerances) - failed} passed, {failed} failed [device {device.type}{how}] "
          f"{steps} steps in {dt:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
