"""Uniform blocks as data: a kernel family's 256-byte block is a ``Layout`` of named fields.

Each field is declared once, here: Python packs a dispatch's words by name (``EW.pack(numel=n,
shape=..., stride={0: [...]})``) and ``Layout.wgsl()`` writes the matching accessors the family's
skeleton calls (``u_numel()``, ``u_shape(d)``, ``u_stride(k, d)``, ``u_param(j)``), so a word's
position exists in one place. Fields are words (``u32``; a Python float in an ``f32`` field is
stored as its bits); runs and tables of runs give accessors with one index per dimension. Values
that a captured graph recomputes per replay (``capture.Dyn`` / ``DynWord``) pass through as they
are. Word 63 is never written (common.wgsl's ``pu(63u)`` is a zero the compiler cannot see).

Families with a layout: elementwise (EW), fused elementwise chains (EWF), reduce (RED), batch norm (BN), cross-entropy (CE) and
optimizers (OPTA, OPTM).
The op blocks in ops_*.wgsl read their scalar parameters with ``u_param(j)`` in both.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .capture import SLOT_WORDS, DynWord, f32_word, u32_word

__all__ = ["Field", "Layout", "EW", "EWF", "RED", "BN", "CE", "OPTA", "OPTM"]

_MASK = 0xFFFFFFFF  # plain ints are stored modulo 2**32


@dataclass(frozen=True)
class Field:
    name: str
    at: int                          # the first word
    shape: tuple[int, ...] = ()      # (): one word; (n,): a run of n; (k, n): k runs of n
    kind: str = "u32"                # "u32", or "f32": a Python float is stored as its bits

    @property
    def size(self) -> int:
        return math.prod(self.shape) if self.shape else 1


class Layout:
    """Named fields over the words of one uniform block (see the module docstring)."""

    def __init__(self, family: str, *fields: Field):
        self.family = family
        self.fields = {f.name: f for f in fields}
        used: dict[int, str] = {}
        for f in fields:
            if f.kind not in ("u32", "f32") or len(f.shape) > 2:
                raise ValueError(f"layout {family}: field {f.name} has kind {f.kind!r} and shape {f.shape}")
            for w in range(f.at, f.at + f.size):
                if w in used:
                    raise ValueError(f"layout {family}: fields {used[w]} and {f.name} both use word {w}")
                if not 0 <= w < SLOT_WORDS - 1:
                    raise ValueError(f"layout {family}: field {f.name} uses word {w} (words 0..{SLOT_WORDS - 2})")
                used[w] = f.name
        self.size = max(used) + 1

    def _word(self, f: Field, v):
        if type(v) is int:
            return v & _MASK      # negative strides wrap around in the kernel's u32 arithmetic
        if isinstance(v, DynWord):
            return v              # an already packed word, recomputed at every replay
        if f.kind == "f32" and isinstance(v, float):
            return f32_word(v)    # a Dyn gives a DynWord
        return u32_word(v)

    def pack(self, **values) -> list:
        """The block's words; a run takes a sequence (it may be shorter than the run), a table of runs
        a mapping or sequence of rows. Fields not given are 0."""
        words: list = [0] * self.size
        for name, v in values.items():
            f = self.fields.get(name)
            if f is None:
                raise KeyError(f"layout {self.family} has no field {name!r} (fields: {', '.join(self.fields)})")
            if not f.shape:
                words[f.at] = self._word(f, v)
                continue
            rows = [(0, v)] if len(f.shape) == 1 else (v.items() if isinstance(v, dict) else enumerate(v))
            n = f.shape[-1]
            for r, row in rows:
                if len(row) > n or (len(f.shape) == 2 and not 0 <= r < f.shape[0]):
                    raise ValueError(f"layout {self.family}: field {name} holds {f.shape}, got row {r} of "
                                     f"{len(row)} values")
                base = f.at + r * n
                for j, x in enumerate(row):
                    words[base + j] = self._word(f, x)
        return words

    def index(self, name: str, *idx: int) -> int:
        """The word that ``name[idx]`` occupies (for code that updates one word of a packed block)."""
        f = self.fields[name]
        if len(idx) != len(f.shape):
            raise ValueError(f"layout {self.family}: field {name} takes {len(f.shape)} indices")
        off = 0
        for i, n in zip(idx, f.shape):
            if not 0 <= i < n:
                raise IndexError(f"layout {self.family}: {name}{list(idx)} outside {f.shape}")
            off = off * n + i
        return f.at + off

    def wgsl(self) -> str:
        """The uniform binding, pu/pf, and one accessor per field."""
        out = [f"// uniform block of the {self.family} kernels (device/layouts.py writes this)",
               "@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;",
               "fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }",
               "fn pf(i: u32) -> f32 { return bitcast<f32>(pu(i)); }"]
        for f in self.fields.values():
            t, get = ("f32", "pf") if f.kind == "f32" else ("u32", "pu")
            if not f.shape:
                out.append(f"fn u_{f.name}() -> {t} {{ return {get}({f.at}u); }}")
            elif len(f.shape) == 1:
                out.append(f"fn u_{f.name}(j: u32) -> {t} {{ return {get}({f.at}u + j); }}")
            else:
                out.append(f"fn u_{f.name}(k: u32, j: u32) -> {t} {{ return {get}({f.at}u + {f.shape[1]}u * k + j); }}")
        return "\n".join(out) + "\n"


# wgsl/elementwise.wgsl: up to three operands (slot 2 is also a strided output)
EW = Layout("elementwise",
            Field("numel", 0), Field("rank", 1), Field("out_offset", 2),
            Field("offset", 3, (3,)),               # element offset of operand k
            Field("scalar", 6, (3,)),               # operand k as a value (its bits in the compute type)
            Field("param", 9, (3,), "f32"),         # the op's parameters (nan_to_num's values, elu's alpha...)
            Field("shape", 12, (12,)),              # the (coalesced) output shape, outermost first
            Field("stride", 24, (3, 12)),           # operand k's strides over that shape
            Field("err_code", 60),                  # int64 kernels that check their range (ops_int64.wgsl)
            Field("err_zero", 61),                  # integer divisions: a zero divisor (int64_range.ZERO_CHECKED)
            Field("err_slot", 62))                  # the result's promotion slot (device/gpu_int64_promote.py)

# device/trace_fusion_ew.py: a chain of up to 8 elementwise ops over up to 8 operands (their views are
# constants of the kernel)
EWF = Layout("elementwise_fused",
             Field("numel", 0), Field("out_offset", 1),
             Field("offset", 2, (8,)),              # element offset of outside operand n
             Field("scalar", 10, (12,)),            # scalar n (its float32 bits)
             Field("param", 22, (8, 3), "f32"))     # stage m's op parameters

# wgsl/reduce.wgsl: out[o] for M outputs folds K elements; the input seen as (kept..., reduced...)
RED = Layout("reduce",
             Field("rows", 0), Field("red_len", 1), Field("kept_rank", 2), Field("red_rank", 3),
             Field("in_offset", 4), Field("out_offset", 5),
             Field("chunk", 6), Field("groups", 7),  # mode 2/3: G partial states per output, chunk of K each
             Field("param", 8, (4,), "f32"),         # the op's scalars (var's correction, norm's p)
             Field("kept_shape", 12, (12,)), Field("kept_stride", 24, (12,)),
             Field("red_shape", 36, (12,)), Field("red_stride", 48, (12,)),
             Field("err_code", 60),                  # int64 sums and products (ops_int64.wgsl)
             Field("err_slot", 62))                  # the result's promotion slot (device/gpu_int64_promote.py)

# wgsl/batchnorm.wgsl: x seen as (batch, channels, spatial), contiguous; running stats and the
# affine parameters are vectors read at their offsets
BN = Layout("batchnorm",
            Field("channels", 0), Field("spatial", 1), Field("batch", 2), Field("numel", 3),
            Field("x_offset", 4), Field("dy_offset", 5), Field("w_offset", 6), Field("b_offset", 7),
            Field("rm_offset", 8), Field("rv_offset", 9),
            Field("eps", 10, kind="f32"), Field("momentum", 11, kind="f32"), Field("unbias", 12, kind="f32"),
            Field("count_offset", 13),             # stats: the module's num_batches_tracked (int64 as i32)
            Field("y_offset", 14),                 # bwd_*: a relu's output that masks dy (trace_fusion.py)
            # stats / bwd_reduce reading a split-K conv's partial sums (trace_fusion.py): their count,
            # and the conv's bias (offset, stride)
            Field("splits", 15), Field("bias_offset", 16), Field("bias_stride", 17),
            Field("res_offset", 18),               # apply: a residual added after it (trace_fusion_bn.py)
            Field("ga_offset", 19), Field("gb_offset", 20))   # bwd_reduce: dy as two gradients' sum, masked

# wgsl/loss.wgsl: cross-entropy of x (rows, classes) and int64 targets (as i32); mean: 1 'mean', 0 'sum',
# 2 'none' (the backward's output gradient has one value a row)
CE = Layout("cross_entropy",
            Field("rows", 0), Field("classes", 1), Field("x_offset", 2), Field("t_offset", 3),
            Field("ignore_index", 4), Field("err_code", 5), Field("mean", 6), Field("g_offset", 7),
            Field("out_offset", 8))

# wgsl/optim.wgsl adam_multi: Adam / AdamW over up to 7 parameters per dispatch; a row (numel and the
# p, g, exp_avg, exp_avg_sq, max_exp_avg_sq offsets) and a float row (-step size, sqrt of the second
# bias correction: per parameter, as each has its own step) each; scalars may be capture.Dyn (a
# scheduler's lr, the bias corrections)
OPTA = Layout("optim_adam_multi",
              Field("count", 0), Field("weight_decay", 1, kind="f32"), Field("one_minus_beta1", 2, kind="f32"),
              Field("beta2", 3, kind="f32"), Field("one_minus_beta2", 4, kind="f32"), Field("eps", 5, kind="f32"),
              Field("decay_factor", 6, kind="f32"), Field("tensor", 7, (7, 6)), Field("tensor_f", 49, (7, 2), "f32"))

# wgsl/optim.wgsl sgd_multi: up to 14 parameters per dispatch, a row (numel, p, g, buffer offsets) each
OPTM = Layout("optim_multi",
              Field("count", 0), Field("first", 1), Field("neg_lr", 2, kind="f32"),
              Field("weight_decay", 3, kind="f32"), Field("momentum", 4, kind="f32"),
              Field("one_minus_dampening", 5, kind="f32"), Field("tensor", 6, (14, 4)))
