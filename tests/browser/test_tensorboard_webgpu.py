"""``from torch.utils.tensorboard import SummaryWriter`` in the page's Python (Chromium, Pyodide): scalars
from WebGPU tensors (a few steps of a small regression) go to an event file in the page's file system,
which the script reads back with a reader of its own (TFRecord framing, both crc32c computed bit by bit,
the Event's step and simple_value decoded from the protobuf wire format) and compares with ``.item()``
as float32. A histogram and an image of webgpu tensors are written too; the directory layout and file
name are PyTorch's."""
from __future__ import annotations

import json

SCRIPT = r'''
import json, os, struct, tempfile
import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter

def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF

def masked(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF

def records(path):
    data, i, out = open(path, "rb").read(), 0, []
    while i < len(data):
        (n,) = struct.unpack("<Q", data[i:i + 8])
        assert struct.unpack("<I", data[i + 8:i + 12])[0] == masked(data[i:i + 8])
        body = data[i + 12:i + 12 + n]
        assert struct.unpack("<I", data[i + 12 + n:i + 16 + n])[0] == masked(body)
        out.append(body)
        i += 16 + n
    return out

def fields(buf):
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(buf, i)
        elif wire == 1:
            v, i = buf[i:i + 8], i + 8
        elif wire == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            n, i = varint(buf, i)
            v, i = buf[i:i + n], i + n
        yield num, v

def varint(buf, i):
    n = s = 0
    while True:
        b = buf[i]; i += 1
        n |= (b & 0x7F) << s; s += 7
        if not b & 0x80:
            return n, i

torch.manual_seed(0)
assert torch.webgpu.is_available()
x = torch.linspace(-1, 1, 16, device="webgpu").unsqueeze(1)
y = 3 * x + 0.5
model = torch.nn.Linear(1, 1).to("webgpu")
opt = torch.optim.SGD(model.parameters(), lr=0.2)
expect = []
with SummaryWriter(tempfile.mkdtemp()) as w:   # the page is shared: a fresh directory
    for step in range(4):
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        assert loss.device.type == "webgpu"
        w.add_scalar("loss", loss, step)
        expect.append((step, struct.pack("<f", loss.item())))
    w.add_histogram("weight", model.weight, 0)
    w.add_image("img", torch.rand(3, 4, 4, device="webgpu"), 0)
    logdir = w.get_logdir()
(name,) = os.listdir(logdir)
got, tags = [], []
for rec in records(os.path.join(logdir, name))[1:]:
    ev = dict(fields(rec))
    (num, value), = fields(ev[5])          # Summary.value
    val = dict(fields(value))
    tags.append(val[1].decode())
    if 2 in val:
        got.append((ev.get(2, 0), val[2]))
print(json.dumps({"name": name, "tags": tags, "equal": got == expect, "n": len(got),
                  "has_histo": any(5 in dict(fields(dict(fields(dict(fields(r))[5]))[1]))
                                   for r in records(os.path.join(logdir, name))[1:])}))
'''


def test_summary_writer_scalars_from_webgpu_tensors(browser, summary_line):
    code, out, err = browser.run(SCRIPT, timeout_s=120)
    assert code == 0, out[-4000:] + err[-4000:]
    r = json.loads(out.strip().splitlines()[-1])
    assert r["name"].startswith("events.out.tfevents.") and r["tags"] == ["loss"] * 4 + ["weight", "img"]
    assert r["equal"] and r["n"] == 4 and r["has_histo"], r
    summary_line(f"webgpu tensorboard: {r['n']} scalars read back equal, 1 histogram, 1 image ({r['name']})")
