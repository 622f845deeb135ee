"""Training on WebGPU in Chromium: memory stays flat, PyTorch's trajectory is followed, MNIST is learned."""
from __future__ import annotations

import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def test_memory_after_300_steps_equals_memory_after_10(browser, summary_line):
    code, out, err = browser.run("""
import json
import borch_webgpu as torch
from borch_webgpu import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                      nn.Linear(16, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x = torch.randn(8, 1, 12, 12)
y = torch.randint(0, 10, (8,))
mem = {}
for step in range(1, 301):
    with torch.scope():
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    if step in (10, 300):
        torch.webgpu.synchronize()
        mem[step] = torch.webgpu.memory_allocated()
print(json.dumps({"mem": mem, "loss": loss.item(), "peak": torch.webgpu.max_memory_allocated()}))
""", timeout_s=1200)
    assert code == 0, err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    summary_line(f"small CNN, 300 SGD steps on WebGPU: memory in use {r['mem']['10']} bytes after step 10, "
                 f"{r['mem']['300']} after step 300 (peak {r['peak']})")
    assert r["mem"]["300"] == r["mem"]["10"], r


def test_training_follows_pytorch_step_by_step(browser, summary_line):
    from borch_webgpu.run import mount_list
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        browser.sess.mount(mount_list(["tests/golden/training", "tests/golden/replay_training.py"]))
        code, out, err = browser.run_file(GOLDEN / "replay_training.py", ["--device", "webgpu"], timeout_s=1800)
    finally:
        os.chdir(cwd)
    for line in out.splitlines():
        if line.startswith("training parity:"):
            summary_line("webgpu " + line)
    assert code == 0, out[-4000:] + err[-3000:]


def test_mlp_learns_mnist_and_a_small_cnn_beats_it(browser, summary_line):
    """The budget: an MLP gets 1,500 steps of batch 64 to reach 95% on the 1,500 test digits; a small
    CNN gets 600 steps and must beat it (the script's docstring has the rest of the recipe). On
    SwiftShader (2026-12-03) the MLP reached 96.13% and the CNN 96.67% (97.13% in 800 steps, 95.87% in
    400, which does not beat the MLP); 600 keeps CI under its time budget."""
    mlp_steps, cnn_steps = 1500, 600
    code, out, err = browser.run((Path(__file__).parent / "scripts" / "mnist_train.py").read_text(),
                                 [str(mlp_steps), str(cnn_steps)], timeout_s=1800)
    assert code == 0, err[-3000:]
    line = next(x for x in out.splitlines() if x.startswith("MNIST "))
    r = json.loads(line[len("MNIST "):])
    summary_line(f"MNIST on WebGPU, batch 64: MLP {mlp_steps} steps, test accuracy {r['mlp']['accuracy']:.4f} "
                 f"({r['mlp']['seconds']:.0f} s); CNN {cnn_steps} steps, {r['cnn']['accuracy']:.4f} "
                 f"({r['cnn']['seconds']:.0f} s)")
    assert r["mlp"]["accuracy"] >= 0.95, r
    assert r["cnn"]["accuracy"] > r["mlp"]["accuracy"], r
