"""Writes tests/golden/tensorboard.json: the event files real PyTorch 2.13's SummaryWriter writes for the
scenarios of tensorboard_cases.py, read back with TensorBoard's own reader (TFRecord framing and crc32c
checked by it) and its protobuf classes, minus wall_time and the file names.

Then it runs the same scenarios with borch_webgpu's SummaryWriter (CPython, cpu device) and records what
TensorBoard makes of those files: how many events its EventFileLoader reads, and whether the records,
decoded with TensorBoard's protobuf classes, equal PyTorch's (all but source_metadata.writer, which names
the writer), and whether its EventAccumulator (the loader behind the dashboards) finds the same tags and
scalar values in both.

Images are recorded as their decoded pixels (Pillow): shape and sha256 of the uint8 bytes.

Run: PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_tensorboard.py
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import struct
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import tensorboard  # noqa: E402
import torch  # noqa: E402
from PIL import Image  # noqa: E402
from google.protobuf.descriptor import FieldDescriptor as FD  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402
from tensorboard.backend.event_processing.event_file_loader import EventFileLoader, RawEventFileLoader  # noqa: E402
from tensorboard.compat.proto import event_pb2  # noqa: E402
from tensorboard.plugins.hparams import plugin_data_pb2  # noqa: E402
from torch.utils.tensorboard import SummaryWriter as TorchWriter  # noqa: E402

import tensorboard_cases  # noqa: E402

NAME = re.compile(r"^events\.out\.tfevents\.\d{10}\.[^.]+(\.[^.]+)*\.\d+\.(\d+)(\.sfx)?$")


def _png(data: bytes) -> dict:
    img = np.asarray(Image.open(io.BytesIO(data)))
    return {"shape": list(img.shape), "sha256": hashlib.sha256(img.astype(np.uint8).tobytes()).hexdigest()}


def _scalar(field, value, parent):
    t = field.type
    if t == FD.TYPE_DOUBLE:
        return "d:" + float(value).hex()
    if t == FD.TYPE_FLOAT:
        return "f:%08x" % struct.unpack("<I", struct.pack("<f", value))[0]
    if t == FD.TYPE_MESSAGE:
        return canon(value)
    if t == FD.TYPE_BYTES:
        if field.name == "encoded_image_string":
            return {"png": _png(value)}
        if field.name == "content" and parent.plugin_name == "hparams":
            return canon(plugin_data_pb2.HParamsPluginData.FromString(value))
        return "b:" + value.hex()
    if t == FD.TYPE_BOOL:
        return bool(value)
    if t == FD.TYPE_STRING:
        return str(value)
    return int(value)   # ints and enums


def canon(msg) -> dict:
    """{field name: value} of the fields that are set (protobuf's ListFields): doubles as hex, floats as
    their bits, bytes as hex, maps as dicts."""
    out = {}
    for field, value in msg.ListFields():
        if field.type == FD.TYPE_MESSAGE and field.message_type.GetOptions().map_entry:
            vf = field.message_type.fields_by_name["value"]
            out[field.name] = {str(k): _scalar(vf, value[k], msg) for k in sorted(value)}
        elif field.is_repeated:
            out[field.name] = [_scalar(field, v, msg) for v in value]
        else:
            out[field.name] = _scalar(field, value, msg)
    return out


def _event_files(root: Path) -> dict[str, list[Path]]:
    """{relative directory: event files sorted by the writer counter in their names}."""
    found: dict[str, list[Path]] = {}
    for p in sorted(root.rglob("events.out.tfevents.*")):
        m = NAME.match(p.name)
        assert m, p.name
        found.setdefault(str(p.parent.relative_to(root)), []).append(p)
    return {k: sorted(v, key=lambda p: int(NAME.match(p.name).group(2))) for k, v in sorted(found.items())}


def other_files(root: Path) -> dict:
    """{scenario: {relative path: text, or {"png": pixels}}} of the files that are not event files
    (the projector's tsv, png and pbtxt files)."""
    out: dict = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.name.startswith("events.out.tfevents."):
            scenario, _, rel = str(p.relative_to(root)).partition(os.sep)
            data = p.read_bytes()
            out.setdefault(scenario, {})[rel] = {"png": _png(data)} if p.suffix == ".png" else data.decode("utf-8")
    return out


def read_dir(root: Path) -> dict:
    """{scenario: {relative dir: [[event, ...] per file]}}, wall_time dropped."""
    out: dict = {}
    for rel, files in _event_files(root).items():
        scenario, _, sub = rel.partition(os.sep)
        per_file = []
        for f in files:
            events = []
            for raw in RawEventFileLoader(str(f)).Load():
                e = canon(event_pb2.Event.FromString(raw))
                assert "wall_time" in e
                del e["wall_time"]
                events.append(e)
            per_file.append(events)
        out.setdefault(scenario, {})[sub or "."] = per_file
    return out


def accumulated(root: Path) -> dict:
    """What TensorBoard's EventAccumulator (the loader behind its dashboards) finds in each run
    directory: tags per kind, and the scalars' (step, value) lists."""
    out = {}
    for rel in _event_files(root):
        ea = EventAccumulator(str(root / rel), size_guidance={"scalars": 0, "images": 0, "histograms": 0,
                                                              "tensors": 0, "audio": 0})
        ea.Reload()
        tags = {k: sorted(v) for k, v in ea.Tags().items() if isinstance(v, list) and v}
        scalars = {t: [(e.step, e.value) for e in ea.Scalars(t)] for t in tags.get("scalars", [])}
        out[rel] = {"tags": tags, "scalars": scalars}
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        theirs, ours = Path(tmp) / "torch", Path(tmp) / "ours"
        tensorboard_cases.run_all(torch, TorchWriter, theirs)
        cases = read_dir(theirs)

        sys.path.insert(0, str(ROOT))
        import borch_webgpu
        from borch_webgpu.utils.tensorboard import SummaryWriter as OurWriter
        tensorboard_cases.run_all(borch_webgpu, OurWriter, ours)
        n_events = n_files = 0
        for files in _event_files(ours).values():
            for f in files:
                n_files += 1
                n_events += sum(1 for _ in EventFileLoader(str(f)).Load())
        mine = read_dir(ours)
        for scenario in mine.values():
            for files in scenario.values():
                for events in files:
                    assert events[0]["source_metadata"] == {"writer": "borch_webgpu.utils.tensorboard"}
                    events[0]["source_metadata"] = {"writer": "tensorboard.summary.writer.event_file_writer"}
        equal = mine == cases and other_files(ours) == other_files(theirs)
        dashboards = accumulated(ours)
        dashboards_equal = repr(dashboards) == repr(accumulated(theirs))   # repr: NaN equals NaN
        n_tags = sum(len(v) for d in dashboards.values() for v in d["tags"].values())
        files_golden = other_files(theirs)
        if not equal:
            for name in cases:
                if mine.get(name) != cases[name]:
                    print(f"differs: {name}", file=sys.stderr)
    total = sum(len(ev) for sc in cases.values() for files in sc.values() for ev in files)
    out = {
        "torch": torch.__version__, "tensorboard": tensorboard.__version__,
        "events": total,
        "cases": cases,
        "other_files": files_golden,
        "tensorboard_reads_ours": {"summary": f"tensorboard reads ours: {n_events} events",
                                   "events": n_events, "files": n_files, "equal_to_torch": equal,
                                   "accumulator_tags": n_tags, "accumulator_equal_to_torch": dashboards_equal},
    }
    (HERE / "tensorboard.json").write_text(json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote tensorboard.json: {len(cases)} scenarios, {total} events; "
          f"tensorboard reads ours: {n_events} events in {n_files} files, equal to torch's: {equal}; "
          f"EventAccumulator: {n_tags} tags, equal to torch's: {dashboards_equal}")


if __name__ == "__main__":
    main()
