"""Every op has a golden generator and a WGSL block; every WGSL block belongs to an op."""
from __future__ import annotations

import re
import sys
from importlib import resources
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
sys.path.insert(0, str(GOLDEN))

import borch_webgpu  # noqa: E402,F401 - fills the registry
from borch_webgpu.device import kernels  # noqa: E402
from borch_webgpu.ops._registry import REGISTRY  # noqa: E402

import casefile  # noqa: E402
from cases import GENERATORS  # noqa: E402


def test_every_op_has_a_golden_generator():
    # internal kernels (e.g. _pow_scalar) are covered by the public op they serve (extra["golden"])
    missing = sorted({op.extra.get("golden", op.name) for op in REGISTRY.values()} - set(GENERATORS))
    assert not missing, f"ops registered without a golden generator in tests/golden/cases.py: {missing}"


def test_every_generator_names_a_registered_op():
    assert not sorted(set(GENERATORS) - set(REGISTRY))


def test_internal_kernels_name_a_public_op():
    for op in REGISTRY.values():
        if op.name.startswith("_") and op.name != "_to_copy":
            assert op.extra.get("golden") in REGISTRY, f"{op.name} must say which public op covers it"


def test_every_golden_file_is_up_to_date_with_the_generators():
    on_disk = {casefile.op_name(p) for p in casefile.files()}
    assert on_disk == set(GENERATORS), "run python tests/golden/generate.py (needs torch==2.13.0)"


def test_every_op_names_an_existing_wgsl_block():
    for op in REGISTRY.values():
        if op.wgsl is not None:
            kernels.op_block(*op.wgsl)  # raises KeyError when missing


def test_every_wgsl_block_belongs_to_an_op():
    used = {op.wgsl for op in REGISTRY.values() if op.wgsl}
    used |= {(op.wgsl[0], op.extra["int_block"]) for op in REGISTRY.values() if "int_block" in op.extra}
    used |= {(op.wgsl[0], b) for op in REGISTRY.values() for b in op.extra.get("refs", {})}
    # ops_int64.wgsl holds the range-checked int64 variants of other files' blocks
    from borch_webgpu.device.gpu_backend import INT64_REDUCE
    from borch_webgpu.device.int64_range import CHECKED_EW, CHECKED_SCAN
    mirrors = CHECKED_EW | {("ops_reduce.wgsl", b) for b in INT64_REDUCE} | {("scan.wgsl", b) for b in CHECKED_SCAN}
    assert mirrors <= used, f"checked int64 variants of blocks no op uses: {sorted(mirrors - used)}"
    used |= {("ops_int64.wgsl", b) for _, b in mirrors}
    root = resources.files("borch_webgpu").joinpath("wgsl")
    int64_blocks = set()
    for f in root.iterdir():
        if not f.name.startswith("ops_"):
            continue
        for block in re.findall(r"^//@op (\S+)", f.read_text(), re.M):
            assert (f.name, block) in used, f"wgsl/{f.name} block {block} has no op in the registry"
            if f.name == "ops_int64.wgsl":
                int64_blocks.add(block)
    assert int64_blocks == {b for _, b in mirrors}, "every checked int64 op needs its block in ops_int64.wgsl"


def test_every_op_declares_a_tolerance():
    for op in REGISTRY.values():
        rtol, atol = op.tol
        assert rtol >= 0 and atol >= 0


def test_every_op_pytorch_differentiates_has_a_gradient_golden():
    # which ops PyTorch differentiates is asked of real PyTorch (tests/golden/generate_differentiable.py)
    import json
    asked = json.loads((GOLDEN / "differentiable.json").read_text())["ops"]
    assert set(asked) == set(GENERATORS), "run python tests/golden/generate_differentiable.py (needs torch==2.13.0)"
    missing = []
    for op, yes in sorted(asked.items()):
        if yes and not any(c.get("grads") is not None for c in casefile.read(casefile.path(op))["cases"]):
            missing.append(op)
    assert not missing, f"PyTorch differentiates these ops but no golden case checks our backward (grad=True): {missing}"

