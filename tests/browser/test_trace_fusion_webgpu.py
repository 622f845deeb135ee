"""Fusion over the captured trace on WebGPU in Chromium (SwiftShader here: a CPU, not a GPU): under
``model.eval()`` + ``torch.compile(model)`` a conv whose output only an eval batch norm reads takes
that batch norm (and its relu) as its epilogue, and then the residual add (and relu) that alone reads
its result (device/trace_fusion.py). The compiled model must give the eager model's outputs bit for
bit, with one dispatch fewer per batch norm and per residual block, and leave a conv or an add whose
input is read elsewhere too alone. In a compiled training step, relu's gradient joins the batch
norm's backward or the add of gradients before it (and that add the batch norm's backward after it),
each batch norm's statistics and apply (and its two backward kernels) become one kernel, the residual
add + relu joins the batch norm before it, and on the GPU path (forced here) the split-K sums of
convs go into the batch norm kernels that read them first, and the split sums nothing reads before the
next conv ride on that conv's dispatch as its tail (all bit for bit as eager's)."""
from __future__ import annotations

import json

SCRIPT = r"""
import json
import numpy as np
import borch_webgpu as torch
from borch_webgpu import nn
from borch_webgpu.vision.models import resnet18_cifar


def stats_run(fn, x):
    torch.webgpu.synchronize()   # earlier work is submitted (and counted) before
    with torch.no_grad():
        s0 = torch.webgpu.stats()["dispatches"]
        y = fn(x).numpy()
        return y, torch.webgpu.stats()["dispatches"] - s0


class Shared(nn.Module):   # the conv's output feeds the batch norm and the sum: nothing may fuse
    def __init__(self):
        super().__init__()
        self.conv, self.bn = nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4)

    def forward(self, x):
        c = self.conv(x)
        return self.bn(c) + c.mean()


class SharedResidual(nn.Module):   # conv + bn fuse; the add may not take them: y is read twice
    def __init__(self):
        super().__init__()
        self.conv, self.bn = nn.Conv2d(4, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4)

    def forward(self, x):
        x = x.repeat(1, 2, 1, 1)[:, :4].contiguous()
        y = self.bn(self.conv(x))
        return torch.relu(y + x) + y.mean()


out = {}
torch.manual_seed(0)
for name, model in (("resnet", resnet18_cifar(width=8)), ("shared", Shared()), ("shared_res", SharedResidual())):
    model = model.to("webgpu")
    model.train()
    with torch.no_grad():   # non-trivial running statistics
        for _ in range(3):
            model(torch.randn(8, 3, 16, 16))
    model.eval()
    x = torch.randn(2, 3, 16, 16)
    ref, n_eager = stats_run(model, x)
    c = torch.compile(model)
    for _ in range(3):
        got, n = stats_run(c, x)
    out[name] = {"diff": float(np.abs(got - ref).max()), "eager": n_eager, "replay": n,
                 "bn": sum(isinstance(m, nn.BatchNorm2d) for m in model.modules()),
                 "blocks": sum(type(m).__name__ == "BasicBlock" for m in model.modules())}
# the GPU path on this adapter too (forced): convs split along K, so their split_sum takes the batch
# norm and the residual add
from borch_webgpu.device import gpu_conv
saved = (gpu_conv._software, gpu_conv.SPLIT_CHUNK_MIN)
gpu_conv._software, gpu_conv.SPLIT_CHUNK_MIN = False, 16
try:
    torch.manual_seed(0)
    model = resnet18_cifar(width=8).to("webgpu").eval()
    x = torch.randn(1, 3, 16, 16)
    ref, n_eager = stats_run(model, x)
    c = torch.compile(model)
    for _ in range(3):   # eager warm-up, capture, then one replay
        got, n = stats_run(c, x)
    out["resnet_split"] = {"diff": float(np.abs(got - ref).max()), "eager": n_eager, "replay": n}
finally:
    gpu_conv._software, gpu_conv.SPLIT_CHUNK_MIN = saved
print(json.dumps(out))
"""


def test_compiled_eval_convs_take_their_batch_norm(browser, summary_line):
    code, out, err = browser.run(SCRIPT)
    assert code == 0, err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    res, shared, shared_res = r["resnet"], r["shared"], r["shared_res"]
    summary_line(f"trace fusion on WebGPU: compiled eval ResNet-18 (width 8) forward in {res['replay']} dispatches "
                 f"(eager {res['eager']}), outputs {res['diff']:.1e} apart")
    assert res["diff"] == 0.0 and shared["diff"] == 0.0 and shared_res["diff"] == 0.0, r
    assert res["blocks"] == 8, r
    assert res["replay"] == res["eager"] - res["bn"] - res["blocks"], r
    assert shared["replay"] == shared["eager"], r
    assert shared_res["replay"] == shared_res["eager"] - 2, r   # the batch norm; relu(y + x) as one kernel (trace_fusion_ew)
    split = r["resnet_split"]
    assert split["diff"] == 0.0, r
    assert split["eager"] > res["eager"], r   # the forced GPU path split convs along K
    assert split["replay"] == split["eager"] - res["bn"] - res["blocks"], r


TRAIN = r"""
import json
import numpy as np
import borch_webgpu as torch
from borch_webgpu import nn
from borch_webgpu.nn import functional as F

torch.manual_seed(0)
x = torch.randn(4, 3, 8, 8).to("webgpu")
y = torch.randint(0, 5, (4,)).to("webgpu")


class Net(nn.Module):   # a stem and two residual blocks (one conv each), as ResNet's
    def __init__(self):
        super().__init__()
        self.conv0, self.bn0 = nn.Conv2d(3, 6, 3, padding=1, bias=False), nn.BatchNorm2d(6)
        self.conv1, self.bn1 = nn.Conv2d(6, 6, 3, padding=1), nn.BatchNorm2d(6)   # a bias: split_sum adds it
        self.conv2, self.bn2 = nn.Conv2d(6, 6, 3, padding=1, bias=False), nn.BatchNorm2d(6)
        self.conv3, self.bn3 = nn.Conv2d(6, 6, 3, padding=1, bias=False), nn.BatchNorm2d(6)
        self.fc = nn.Linear(6, 5)

    def forward(self, x):
        x = torch.relu(self.bn0(self.conv0(x)))
        y = F.relu(self.bn1(self.conv1(x)), inplace=True)
        y = F.relu(self.bn2(self.conv2(y)) + x, inplace=True)   # add_relu
        y = F.relu(self.bn3(self.conv3(y)) + y, inplace=True)
        return self.fc(y.mean((2, 3)))


def build(sgd):
    torch.manual_seed(1)
    model = Net().to("webgpu")
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9) if sgd else None

    def step(x, y):
        model.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        if opt is not None:
            opt.step()
        return loss
    return model, step


def run(fn, model):   # gradients, parameters and buffers after three steps, and the dispatches of a fourth
    for _ in range(3):   # compiled: eager warm-up, capture, a replay (running statistics move as eagerly)
        with torch.scope():
            fn(x, y).item()
    g = [p.grad.numpy().copy() for p in model.parameters()]
    g += [p.detach().numpy().copy() for p in model.parameters()] + [b.numpy().astype("float64") for b in model.buffers()]
    torch.webgpu.synchronize()
    s0 = torch.webgpu.stats()["dispatches"]
    fn(x, y).item()
    return g, torch.webgpu.stats()["dispatches"] - s0


def compare(sgd):
    model, step = build(sgd)
    ref, eager = run(step, model)
    model, step = build(sgd)
    got, replay = run(torch.compile(step), model)
    return {"diff": max(float(np.abs(a - b).max()) for a, b in zip(ref, got)), "eager": eager, "replay": replay}


out = {"plain": compare(False)}
# the GPU path on this adapter too (forced): conv1 and conv2 split along K in all three passes; then
# the batch-norm rewrites refused (as on a GPU for fewer channels than ONE_PASS_CHANNELS)
from borch_webgpu.device import gpu_conv, gpu_norm
saved = (gpu_conv._software, gpu_conv.SPLIT_CHUNK_MIN, dict(gpu_norm.ONE_PASS_CHANNELS), dict(gpu_norm.SPLIT_CHANNELS))
gpu_conv._software, gpu_conv.SPLIT_CHUNK_MIN = False, 16
try:
    out["split"] = compare(True)
    gpu_norm.ONE_PASS_CHANNELS.update(software=7)
    gpu_norm.SPLIT_CHANNELS.update(software=7)
    out["refused"] = compare(True)
finally:
    gpu_conv._software, gpu_conv.SPLIT_CHUNK_MIN = saved[:2]
    gpu_norm.ONE_PASS_CHANNELS.update(saved[2])
    gpu_norm.SPLIT_CHANNELS.update(saved[3])
print(json.dumps(out))
"""


def test_compiled_training_folds_relu_gradients_into_their_neighbours(browser, summary_line):
    code, out, err = browser.run(TRAIN)
    assert code == 0, err[-3000:]
    res = json.loads(out.strip().splitlines()[-1])
    r, s, s0 = res["plain"], res["split"], res["refused"]
    summary_line(f"trace fusion on WebGPU: a two-block conv-bn-relu training step replays in {r['replay']} dispatches "
                 f"(eager {r['eager']}), gradients {r['diff']:.1e} apart; on the GPU path with SGD "
                 f"{s['replay']} (eager {s['eager']}), {s['diff']:.1e} apart")
    # the masks are applied as the batch norm's backward reads dy, with threshold_backward's semantics;
    # the one-kernel batch norms compute as the kernels they replace
    assert r["diff"] == 0.0, res
    # bn1's and the stem's relus: their gradient goes only to bn1's (bn0's) backward, which masks as it
    # reads (2); at block 1's output, conv3's input gradient and block 2's shortcut are added and masked
    # in one kernel (1), which bn2's backward reduce then does itself as it reads them (1: it also
    # writes the sum, for block 1's shortcut), as bn0's does the add of the two gradients at the stem's
    # output (1); four batch norms in one kernel forward and one backward (8); bn2's and bn3's kernels
    # also add the shortcut and relu (the add_relu, 2); conv1's weight gradient (with its bias: a
    # wgrad_sum even unsplit) rides as a tail on conv0's, the next conv dispatch (1)
    assert r["replay"] == r["eager"] - 2 - 1 - 2 - 8 - 2 - 1, res
    # split-K (gradients, parameters, running statistics and counters bit for bit): conv1's, conv2's and
    # conv3's sums (conv1's with its bias) go into their batch norm's statistics (3), conv2's input
    # gradient into bn1's backward reduce, through the relu's mask (1); conv1's and conv3's input
    # gradients meet a shortcut's in an add, so their split_sum rides as a tail on their own weight
    # gradient's GEMM, the next conv dispatch (2), and the split weight gradients of conv3, conv2 and
    # conv1 on the next conv's (3; conv0's has none after it); the rest as above
    assert s["diff"] == 0.0 and s0["diff"] == 0.0, res
    assert s["replay"] == s["eager"] - 3 - 1 - 15 - 2 - 3, res
    # 6 channels, fewer than the kernel choice asks for: the relu fusions (3) and the batch norms' apply
    # taking the add_relu (2: no choice there, it only saves work); the tails as above, and conv2's
    # input-gradient split_sum, which bn1's backward reduce no longer takes, on conv2's weight gradient (6)
    assert s0["eager"] == s["eager"] and s0["replay"] == s["eager"] - 3 - 2 - 6, res
