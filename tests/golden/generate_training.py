"""Freeze a training trajectory from real PyTorch: ``python tests/golden/generate_training.py``.

A reduced CIFAR ResNet-18 (base width 8, 16x16 inputs, batch 8, BatchNorm in train mode) trained
for 30 steps of SGD (lr 0.05, momentum 0.9) on cross-entropy. Writes
tests/golden/training/resnet18_cifar_w8.safetensors with the initial state dict (``init.*``),
the batches, the untrained model's eval-mode logits, every step's loss, every parameter's gradient at steps 1 and 30, the BatchNorm
running buffers after step 30 and the eval-mode logits of a fixed batch after step 30, plus how
far PyTorch's own float32 run is from its float64 run for each of these (``float64_floors``).
The model is written here with torch.nn in torchvision's layout (borch_webgpu.vision.models.resnet
builds the same tree, so the state-dict keys match).
"""
from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors.torch import save_file
from torch import nn

OUT = Path(__file__).resolve().parent / "training" / "resnet18_cifar_w8.safetensors"
STEPS, BATCH, SIZE, WIDTH, CLASSES = 30, 8, 16, 8, 10


class BasicBlock(nn.Module):
    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        return self.relu(out + identity)


class ResNetCifar(nn.Module):
    def __init__(self, width=WIDTH, num_classes=CLASSES):
        super().__init__()
        self.inplanes = width
        self.conv1 = nn.Conv2d(3, width, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.Identity()
        self.layer1 = self._layer(width, 1)
        self.layer2 = self._layer(width * 2, 2)
        self.layer3 = self._layer(width * 4, 2)
        self.layer4 = self._layer(width * 8, 2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(width * 8, num_classes)

    def _layer(self, planes, stride):
        down = None
        if stride != 1 or self.inplanes != planes:
            down = nn.Sequential(nn.Conv2d(self.inplanes, planes, 1, stride, bias=False), nn.BatchNorm2d(planes))
        layers = [BasicBlock(self.inplanes, planes, stride, down), BasicBlock(planes, planes)]
        self.inplanes = planes
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def train(init: dict, xs, ys, x_eval, dtype) -> dict:
    """30 steps from ``init``; returns losses, gradients at steps 1 and 30, BatchNorm buffers, logits."""
    model = ResNetCifar().to(dtype)
    model.load_state_dict({k: v.to(dtype) if v.is_floating_point() else v for k, v in init.items()})
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    out, losses = {}, []
    model.train()
    for step in range(1, STEPS + 1):
        opt.zero_grad()
        loss = loss_fn(model(xs[step - 1].to(dtype)), ys[step - 1])
        loss.backward()
        losses.append(loss.item())
        if step in (1, STEPS):
            for name, p in model.named_parameters():
                out[f"grad{step}.{name}"] = p.grad.detach().clone()
        opt.step()
        if step == STEPS - 1:  # the state step 30 starts from: a check that chaos cannot blur
            for name, v in model.state_dict().items():
                out[f"state{step}.{name}"] = v.detach().clone()
    out["losses"] = torch.tensor(losses, dtype=torch.float64)
    for name, b in model.named_buffers():
        if name.endswith(("running_mean", "running_var")):
            out[f"final.{name}"] = b.detach().clone()
    model.eval()
    with torch.no_grad():
        out["eval_logits"] = model(x_eval.to(dtype))
    return out


def one_step_grads(state: dict, x, y, dtype) -> dict:
    """Gradients of one train-mode step from ``state`` (no optimizer)."""
    model = ResNetCifar().to(dtype)
    model.load_state_dict({k: v.to(dtype) if v.is_floating_point() else v for k, v in state.items()})
    model.train()
    nn.CrossEntropyLoss()(model(x.to(dtype)), y).backward()
    return {name: p.grad.detach().clone() for name, p in model.named_parameters()}


def rel(a, b) -> float:
    a, b = a.double(), b.double()
    den = float(b.norm())
    return float((a - b).norm()) / (den if den > 0 else 1.0)


def floors(a: dict, b: dict) -> dict:
    """How far PyTorch's float32 run is from its float64 run, per quantity (the replay's metric)."""
    f = {"loss, step 1": abs(a["losses"][0] - b["losses"][0]).item() / abs(b["losses"][0]).item(),
         "loss, steps 1-6": max(abs(x - y).item() / abs(y).item() for x, y in zip(a["losses"][:6], b["losses"][:6])),
         "loss, steps 1-30": max(abs(x - y).item() / abs(y).item() for x, y in zip(a["losses"], b["losses"]))}
    for step, key in ((1, "gradients, step 1"), (STEPS, "gradients, step 30")):
        f[key] = max(rel(a[k], b[k]) for k in a if k.startswith(f"grad{step}."))
    f["BatchNorm running buffers, after step 30"] = max(rel(a[k], b[k]) for k in a if k.startswith("final."))
    f["eval-mode logits, after step 30"] = rel(a["eval_logits"], b["eval_logits"])
    return f


def main() -> None:
    torch.manual_seed(20261130)
    model = ResNetCifar()
    init = {k: v.detach().clone() for k, v in model.state_dict().items()}
    out = {f"init.{k}": v for k, v in init.items()}
    xs = torch.randn(STEPS, BATCH, 3, SIZE, SIZE)
    ys = torch.randint(0, CLASSES, (STEPS, BATCH))
    x_eval = torch.randn(BATCH, 3, SIZE, SIZE)
    out.update(xs=xs, ys=ys, x_eval=x_eval)
    model.eval()
    with torch.no_grad():  # the untrained model's outputs: a state dict saved by PyTorch must reproduce them
        out["init_eval_logits"] = model(x_eval)
    run32 = train(init, xs, ys, x_eval, torch.float32)
    # the same run in float64: this configuration is chaotic (PyTorch's own float32 run leaves its
    # float64 run by ~5e-4 at step 7 and several percent by step 30), so parity is judged against
    # that noise floor
    run64 = train(init, xs, ys, x_eval, torch.float64)
    fl = floors(run32, run64)
    m64 = ResNetCifar().double()
    m64.load_state_dict({k: v.double() if v.is_floating_point() else v for k, v in init.items()})
    m64.eval()
    with torch.no_grad():
        fl["eval-mode logits of PyTorch's saved state dict"] = rel(out["init_eval_logits"], m64(x_eval.double()))
    state29 = {k[len(f"state{STEPS - 1}."):]: v for k, v in run32.items() if k.startswith(f"state{STEPS - 1}.")}
    g64 = one_step_grads(state29, xs[STEPS - 1], ys[STEPS - 1], torch.float64)
    fl["gradients, step 30 from PyTorch's step-29 state"] = max(rel(run32[f"grad{STEPS}.{k}"], v) for k, v in g64.items())
    out.update({k: (v.float() if k == "losses" else v) for k, v in run32.items()})
    OUT.parent.mkdir(exist_ok=True)
    save_file({k: v.contiguous() for k, v in out.items()}, str(OUT),
              metadata={"torch": torch.__version__, "float64_floors": json.dumps(fl)})
    losses = run32["losses"].tolist()
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes); losses {losses[0]:.4f} -> {losses[-1]:.4f}")
    for k, v in fl.items():
        print(f"  PyTorch float32 vs float64, {k}: {v:.2e}")


if __name__ == "__main__":
    main()
