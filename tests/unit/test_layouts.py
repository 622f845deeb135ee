"""Uniform blocks as data (device/layouts.py): fields named once, packed by name in Python, read
through generated accessors in WGSL; the skeletons that use a layout read no word by number."""
from __future__ import annotations

import re
from importlib import resources

import pytest

from borch_webgpu.device import kernels
from borch_webgpu.device.capture import Dyn, DynWord
from borch_webgpu.device.layouts import EW, RED, Field, Layout

WGSL = resources.files("borch_webgpu").joinpath("wgsl")
# the files whose kernels take their uniform block from a Layout
USERS = {"elementwise.wgsl": EW, "reduce.wgsl": RED, "ops_unary.wgsl": EW, "ops_binary.wgsl": EW,
         "ops_reduce.wgsl": RED}


def test_overlapping_or_out_of_range_fields_are_refused():
    with pytest.raises(ValueError, match="both use word 3"):
        Layout("t", Field("a", 0, (4,)), Field("b", 3))
    with pytest.raises(ValueError, match="word 63"):
        Layout("t", Field("a", 60, (4,)))


def test_pack_by_name():
    w = EW.pack(numel=10, rank=2, shape=[5, 2], stride={1: [2, -1]}, param=[0.5, 3], scalar=[0, 7])
    assert w[0] == 10 and w[1] == 2 and w[12:14] == [5, 2]
    assert w[24 + 12:24 + 14] == [2, 0xFFFFFFFF]          # operand 1's strides; negatives wrap
    assert w[9] == 0x3F000000 and w[10] == 3 and w[7] == 7
    assert EW.index("stride", 2, 0) == 48 and RED.index("groups") == 7
    with pytest.raises(KeyError, match="no field 'nmel'"):
        EW.pack(nmel=1)
    with pytest.raises(ValueError, match="shape"):
        EW.pack(shape=list(range(13)))


def test_values_recomputed_per_replay_stay_patchable():
    lr = Dyn(0.5, lambda: 0.25)
    w = EW.pack(param=[lr], scalar=[DynWord(1, lambda: 2)])
    assert isinstance(w[9], DynWord) and w[9].fn() == 0x3E800000
    assert isinstance(w[6], DynWord) and w[6].fn() == 2


def test_the_skeletons_read_no_word_by_number_and_call_only_declared_fields():
    for name, layout in USERS.items():
        text = WGSL.joinpath(name).read_text()
        code = "\n".join(line.split("//")[0] for line in text.splitlines())
        assert not re.search(r"\bp[uf]\(", code), f"wgsl/{name} reads a uniform word by number"
        for field in set(re.findall(r"\bu_(\w+)\(", code)):
            assert field in layout.fields, f"wgsl/{name} calls u_{field}, not a field of {layout.family}"


def test_generated_accessors_match_the_python_positions():
    src = kernels.elementwise_source("ops_binary.wgsl", "add", "f32", "f32", "f32", False, ("c", "s"),
                                     ("f32", "f32"))
    assert "fn u_stride(k: u32, j: u32) -> u32 { return pu(24u + 12u * k + j); }" in src
    assert "fn u_param(j: u32) -> f32 { return pf(9u + j); }" in src
    src = kernels.reduce_source("ops_reduce.wgsl", "sum", "f32", "f32", "f32", "f32", 0)
    assert "fn u_red_stride(j: u32) -> u32 { return pu(48u + j); }" in src
    assert "{{" not in src


def test_a_fused_chain_renames_each_stage_and_reads_its_own_parameters():
    from borch_webgpu.device import trace_fusion_ew
    stages = (("ops_unary.wgsl", "leaky_relu", (("x", 0),)), ("ops_unary.wgsl", "leaky_relu", (("s", 0),)),
              ("ops_binary.wgsl", "add", (("s", 1), ("v", 0))))
    src = trace_fusion_ew.source(stages)
    assert "fn u_param(k: u32, j: u32) -> f32 { return pf(22u + 3u * k + j); }" in src
    assert "fn u_param_s1(j: u32) -> f32 { return u_param(1u, j); }" in src
    assert src.count("fn op_s0(") == src.count("fn op_s1(") == src.count("fn op_s2(") == 1
    assert "let s2 = keep(op_s2(s1, bitcast<f32>(u_scalar(0u))));" in src and "out[u_out_offset() + i] = s2;" in src
    # each stage's float32 result is made opaque (no multiply-add contraction across stages)
    assert "fn keep(v: f32) -> f32 { return bitcast<f32>(bitcast<u32>(v) ^ (u_numel() >> 31u)); }" in src
    assert "u_param_s1(" in src.split("fn op_s1(")[1].split("fn ")[0] and "{{" not in src
