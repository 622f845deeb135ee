"""WGSL sources: the skeletons and op blocks in borch_webgpu/wgsl/, and the code that fills them.

A kernel is identified by its key: (family, op, types, flags). Sizes never enter a key; they
travel in the uniform block, so one pipeline serves every shape.
"""
from __future__ import annotations

import functools
import re
from importlib import resources

from .layouts import EW, RED

_BLOCK = re.compile(r"^//@(op|mode) (\S+)\s*$", re.M)


@functools.lru_cache(maxsize=None)
def wgsl_file(name: str) -> str:
    return resources.files("borch_webgpu").joinpath("wgsl", name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def blocks(name: str) -> tuple[str, dict[str, str]]:
    """Split a .wgsl file into its head and its ``//@op name`` / ``//@mode n`` blocks."""
    text = wgsl_file(name)
    parts = _BLOCK.split(text)
    head, out = parts[0], {}
    for i in range(1, len(parts), 3):
        out[parts[i + 1]] = parts[i + 2].strip() + "\n"
    return head, out


def op_block(file: str, op: str) -> str:
    try:
        return blocks(file)[1][op]
    except KeyError:
        raise KeyError(f"no //@op {op} block in wgsl/{file}") from None


def fill(template: str, **slots: str) -> str:
    for k, v in slots.items():
        template = template.replace("{{" + k + "}}", v)
    if "{{" in template:
        raise ValueError("unfilled WGSL slot: " + template[template.index("{{"):][:40])
    return template


def common(C: str) -> str:
    """common.wgsl plus `nonzero(x: C)` for this kernel's compute type."""
    kind = {"f32": "f", "f16": "f", "i32": "i", "u32": "u"}[C]
    arg = "f32(x)" if C == "f16" else "x"
    lo, hi = {"f32": ("-f32_inf()", "f32_inf()"), "f16": ("C(-f32_inf())", "C(f32_inf())"),
              "i32": ("i32(-2147483648)", "2147483647"), "u32": ("0u", "0xffffffffu")}[C]
    below = {"f": "bitcast<u32>(f32(x)) > 0x80000000u && !is_nan(f32(x))", "i": "x < 0", "u": "false"}[kind]
    return (wgsl_file("common.wgsl") + f"fn nonzero(x: C) -> bool {{ return nonzero_{kind}({arg}); }}\n"
            f"fn below_zero(x: C) -> bool {{ return {below}; }}\n"
            f"fn c_lowest() -> C {{ return {lo}; }}\nfn c_highest() -> C {{ return {hi}; }}\n")


INT64_FILE = "ops_int64.wgsl"


def err_binding(binding: int) -> str:
    """The error buffer of a kernel that checks an int64 range (wgsl/ops_int64.wgsl), and its helpers."""
    return (f"@group(0) @binding({binding}) var<storage, read_write> err: array<atomic<u32>>;\n"
            + blocks(INT64_FILE)[0])


def elementwise_source(file: str, op: str, C: str, R: str, out_t: str, out_bool: bool, kinds: tuple[str, ...],
                       in_types: tuple[str, ...], strided_out: bool = False, checked: str = "") -> str:
    """kinds[k]: 's' strided, 'c' contiguous same-shape, 'v' scalar value in the uniform block.
    C: compute type, R: the op's return type, out_t: the stored type (out_bool: stored as 0/1).
    checked: "op" runs the op's int64 block of ops_int64.wgsl, "convert" checks a float stored as int64;
    both bind the error buffer after the operands."""
    buffers, loads, args = [], [], []
    binding = 2
    for k, (kind, t) in enumerate(zip(kinds, in_types)):
        if kind == "v":
            bits = {"f32": "f32", "f16": "f32", "i32": "i32", "u32": "u32"}[C]
            loads.append(f"fn load{k}(i: u32) -> C {{ return C(bitcast<{bits}>(u_scalar({k}u))); }}")
        elif kind == "o":  # the output itself (in place): read the element about to be written
            loads.append(f"fn load{k}(i: u32) -> C {{ return C(out[{'strided(i, 2u)' if strided_out else 'u_out_offset() + i'}]); }}")
        else:
            buffers.append(f"@group(0) @binding({binding}) var<storage, read> in{k}: array<{t}>;")
            binding += 1
            idx = f"u_offset({k}u) + i" if kind == "c" else f"strided(i, {k}u)"
            loads.append(f"fn load{k}(i: u32) -> C {{ return C(in{k}[{idx}]); }}")
        args.append(f"load{k}(i)")
    if checked:
        buffers.append(err_binding(binding))
    if checked == "op":
        file = INT64_FILE
    call = f"op({', '.join(args)})"
    if out_bool and R in ("f32", "f16"):
        # nonzero by bit pattern: NaN must become True, and WGSL compilers may assume no NaNs
        store = f"u32((bitcast<u32>(f32({call})) & 0x7fffffffu) != 0u)"
    elif out_bool and R != "u32":
        store = f"u32({call} != R(0))"
    elif checked == "convert":
        store = f"f_to_i64(f32({call}))"
    else:
        store = call if out_t == R else f"{out_t}({call})"
    return fill(wgsl_file("elementwise.wgsl"), C=C, R=R, RS=out_t, BUFFERS="\n".join(buffers),
                LOADS="\n".join(loads), COMMON=common(C), OP=op_block(file, op), STORE=store,
                OUT_INDEX="strided(i, 2u)" if strided_out else "u_out_offset() + i", UNIFORMS=EW.wgsl())


def reduce_source(file: str, op: str, C: str, R: str, in_t: str, out_t: str, mode: int, checked: bool = False,
                  rw: int = 256, prologue: tuple[str, str] | None = None) -> str:
    """checked: the op's int64 block of ops_int64.wgsl (a 64-bit state; the error buffer at binding 3);
    rw: threads an output in modes 0, 2 and 3 (a power of two); prologue: (bindings, load function)
    that compute the input instead of reading ``x`` (modes 0-2, device/trace_fusion_reduce.py)."""
    head, modes = blocks("reduce.wgsl")
    if checked:
        file, head = INT64_FILE, head + err_binding(3)
    if mode == 3:
        in_decl, load_fn = "S", ""
    else:
        in_decl, load_fn = in_t, "fn load(base: u32, j: u32) -> C { return C(x[base + red_off(j)]); }"
    out_decl = "S" if mode == 2 else out_t
    inputs = f"@group(0) @binding(2) var<storage, read> x: array<{in_decl}>;"
    if prologue is not None:
        inputs, load_fn = prologue
    return fill(head + modes[str(mode)], C=C, R=R, COMMON=common(C), OP=op_block(file, op), UNIFORMS=RED.wgsl(),
                OUT_T=out_decl, INPUT=inputs, LOAD_FN=load_fn, OUT_CAST=out_t, RW=str(rw))
