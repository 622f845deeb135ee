"""Expressions for the small integer dtypes (``torch.uint8``, ``torch.int8``, ``torch.int16``): creation,
casts both ways (float -> int truncation, out-of-range wrap-around), arithmetic with wrap-around,
promotion and the dtype queries, comparisons, reductions, printing, numpy interop, byte-mask
indexing and safetensors.

generate_smallint.py evaluates each with ``torch`` bound to real PyTorch (``dev`` = "cpu") and freezes
the value, or the exception's type and message, into smallint.json; replay_smallint.py evaluates them
with ``torch`` bound to borch_webgpu (``cpu``, or ``webgpu`` in Chromium, where these dtypes are held
on the host) and compares with dtype64_cases.close: dtypes, shapes and integers exactly.
The environment adds ``np`` and the helpers below (``U``, ``S``, ``H``: uint8, int8 and int16 tensors
on ``dev``; ``t(values, dtype)``; ``warned(f)``; ``roundtrip(d)``; ``np`` is bound to numpy).
"""
from __future__ import annotations

_U = "[200, 100, 0, 255, 7, 128]"
_S = "[-128, 127, -1, 5, 100, -60]"
_H = "[32767, -32768, 1000, -7, 300, 25000]"
_F = "[300.5, -1.5, 1e10, float('nan'), float('inf'), -129.7, 255.9, 2.7, -0.3]"


def helpers(torch, dev: str) -> dict:
    """The names the expressions use besides torch, dev and np (the same on both sides)."""
    def t(values, dtype):
        return torch.tensor(values, dtype=dtype, device=dev)

    def warned(f):
        """f's value and the messages of the warnings it raised."""
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            v = f()
        return [v, [str(x.message).split(" (Triggered")[0] for x in w]]

    def roundtrip(d):
        """A dict of tensors through save() and load() (PyTorch's zip format: ByteStorage, CharStorage, ShortStorage)."""
        import io
        buf = io.BytesIO()
        torch.save(d, buf)
        buf.seek(0)
        return torch.load(buf)

    return {"U": t(eval(_U), torch.uint8), "S": t(eval(_S), torch.int8), "H": t(eval(_H), torch.int16),
            "t": t, "warned": warned, "roundtrip": roundtrip}


_DT = ["uint8", "int8", "int16"]
_OTHER = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]

CASES: list[tuple] = [
    # ---- creation --------------------------------------------------------------------------------------
    *[(f"tensor dtype={d}", f"t([1, 2, 3], torch.{d})") for d in _DT],
    ("tensor uint8 values", f"t({_U}, torch.uint8)"),
    ("tensor int8 values", f"t({_S}, torch.int8)"),
    ("tensor int16 values", f"t({_H}, torch.int16)"),
    ("tensor uint8 takes -1 as 255", "t([-1, -255], torch.uint8)"),
    ("tensor uint8 refuses 300", "t([300], torch.uint8)"),
    ("tensor uint8 refuses -256", "t([-256], torch.uint8)"),
    ("tensor int8 refuses 128", "t([128], torch.int8)"),
    ("tensor int16 refuses -32769", "t([-32769], torch.int16)"),
    ("tensor uint8 from floats truncates", "t([2.7, 0.2, 255.0], torch.uint8)"),
    ("tensor uint8 refuses -0.5", "t([-0.5], torch.uint8)"),
    ("tensor int8 refuses nan", "t([float('nan')], torch.int8)"),
    ("tensor uint8 from bools", "t([True, False], torch.uint8)"),
    ("tensor scalar int16", "torch.tensor(5, dtype=torch.int16, device=dev)"),
    ("tensor short alias", "t([1, -2], torch.short)"),
    ("zeros int8", "torch.zeros(2, 3, dtype=torch.int8, device=dev)"),
    ("ones uint8", "torch.ones(4, dtype=torch.uint8, device=dev)"),
    ("full uint8 -1", "torch.full((2,), -1, dtype=torch.uint8, device=dev)"),
    ("full int16", "torch.full((2, 2), -300, dtype=torch.int16, device=dev)"),
    ("full uint8 refuses 300", "torch.full((2,), 300, dtype=torch.uint8, device=dev)"),
    ("fill_ uint8 refuses 300", "torch.zeros(2, dtype=torch.uint8, device=dev).fill_(300)"),
    ("fill_ int8", "torch.zeros(3, dtype=torch.int8, device=dev).fill_(-7)"),
    ("arange uint8", "torch.arange(5, dtype=torch.uint8, device=dev)"),
    ("zeros_like", "torch.zeros_like(S)"),
    ("empty dtype", "torch.empty(3, dtype=torch.int16, device=dev).dtype"),
    # ---- numpy interop ---------------------------------------------------------------------------------
    *[(f"tensor from numpy {d}", f"torch.tensor(np.array([1, -2, 3]).astype(np.{d}), device=dev)") for d in _DT],
    *[(f"from_numpy {d}", f"torch.from_numpy(np.array([[1, 2], [3, 4]], np.{d})).to(dev)") for d in _DT],
    ("tensor from numpy wraps", "torch.tensor(np.array([300, -1]), dtype=torch.uint8, device=dev)"),
    ("tensor from numpy floats wraps", "torch.tensor(np.array([1.5, 300.0]), dtype=torch.uint8, device=dev)"),
    ("tensor from a numpy uint8 scalar", "torch.tensor(np.uint8(7), device=dev)"),
    *[(f"numpy() {d}", f"{v}.numpy()") for d, v in zip(_DT, "USH")],
    # ---- casts -----------------------------------------------------------------------------------------
    *[(f"float32 -> {d}", f"torch.tensor({_F}, device=dev).to(torch.{d})") for d in _DT],
    *[(f"float64 -> {d}", f"torch.tensor({_F}, dtype=torch.float64, device=dev).to(torch.{d})") for d in _DT],
    *[(f"int64 -> {d}", f"torch.tensor([300, -1, 70000, -129, 255, 32768], device=dev).to(torch.{d})")
      for d in _DT],
    # (float16 left out: SwiftShader's WebGPU has no shader-f16, and float16 is refused there)
    *[(f"{src} -> {d}", f"{v}.to(torch.{d})") for src, v in zip(_DT, "USH") for d in _OTHER if d != "float16"],
    ("byte()", "torch.tensor([300, -1], device=dev).byte()"),
    ("char()", "U.char()"),
    ("short()", "U.short()"),
    ("int()", "S.int()"),
    ("float()", "H.float()"),
    ("double()", "U.double()"),
    ("bool()", "S.bool()"),
    ("long()", "H.long()"),
    ("type()", "[U.type(), S.type(), H.type()]"),
    ("type(dtype)", "S.type(torch.uint8)"),
    ("element_size", "[U.element_size(), S.element_size(), H.element_size()]"),
    ("copy_ into uint8 wraps", "torch.zeros(3, dtype=torch.uint8, device=dev).copy_("
                               "torch.tensor([256, -3, 7], device=dev))"),
    ("copy_ uint8 into float32", "torch.zeros(6, device=dev).copy_(U)"),
    # ---- arithmetic: wrap-around ------------------------------------------------------------------------
    ("uint8 200 + 100", "t([200], torch.uint8) + t([100], torch.uint8)"),
    ("uint8 + uint8", "U + U"),
    ("uint8 + 100", "U + 100"),
    ("uint8 + 300", "U + 300"),
    ("uint8 + -1", "U + (-1)"),
    ("uint8 - 250", "U - 250"),
    ("uint8 * 3", "U * 3"),
    ("uint8 * 1000", "U * 1000"),
    ("uint8 + 2**40 + 3", "U + (2 ** 40 + 3)"),
    ("int16 * 2**33", "H * 2 ** 33"),
    ("int8 - 2**35", "S - 2 ** 35"),
    ("uint8 + 2**70 refused", "U + 2 ** 70"),
    ("uint8 == 2**40", "U == 2 ** 40"),
    ("neg uint8", "-U"),
    ("int8 + int8", "S + S"),
    ("int8 * int8", "S * S"),
    ("neg int8", "-S"),
    ("abs int8", "S.abs()"),
    ("int16 * 3", "H * 3"),
    ("int16 + int16", "H + H"),
    ("int16 - 1", "H - 1"),
    ("uint8 / 3", "U / 3"),
    ("int8 / int8", "S / t([3, -3, 2, 2, 7, 9], torch.int8)"),
    ("uint8 // 3", "U // 3"),
    ("int8 // 7", "S // 7"),
    ("int8 % 7", "S % 7"),
    ("uint8 ** 2", "U ** 2"),
    ("int8 * 2.5", "S * 2.5"),
    ("uint8 += 100", "(lambda x: (x.add_(100), x)[1])(U.clone())"),
    ("int8 *= 3", "(lambda x: (x.mul_(3), x)[1])(S.clone())"),
    ("uint8 += float refused", "(lambda x: x.add_(1.5))(U.clone())"),
    ("maximum", "torch.maximum(S, t([0, 0, 0, 0, 0, 0], torch.int8))"),
    ("clamp uint8", "U.clamp(10, 150)"),
    ("where", "torch.where(U > 100, U, t([1, 2, 3, 4, 5, 6], torch.uint8))"),
    ("sign int16", "H.sign()"),
    # ---- promotion -------------------------------------------------------------------------------------
    ("uint8 + int8 -> int16", "U + S"),
    ("uint8 + int16", "U + H"),
    ("int8 + int16", "S + H"),
    ("int8 + int64", "S + torch.tensor([1, 2, 3, 4, 5, 6], device=dev)"),
    ("uint8 + int32", "U + torch.tensor([1, 2, 3, 4, 5, 6], dtype=torch.int32, device=dev)"),
    ("uint8 + float32", "U + torch.ones(6, device=dev)"),
    ("int16 + float64", "H + torch.ones(6, dtype=torch.float64, device=dev)"),
    ("int8 + bool", "S + torch.tensor([True] * 6, device=dev)"),
    ("uint8 + 0-d int64", "U + torch.tensor(300, device=dev)"),
    ("uint8 + 0-d int8", "U + torch.tensor(5, dtype=torch.int8, device=dev)"),
    ("0-d uint8 + int8", "torch.tensor(5, dtype=torch.uint8, device=dev) + S"),
    ("uint8 + 0-d float", "U + torch.tensor(0.5, device=dev)"),
    *[(f"promote_types uint8 {d}", f"torch.promote_types(torch.uint8, torch.{d})") for d in _OTHER],
    *[(f"promote_types int8 {d}", f"torch.promote_types(torch.int8, torch.{d})") for d in _OTHER],
    *[(f"promote_types int16 {d}", f"torch.promote_types(torch.int16, torch.{d})") for d in _OTHER],
    *[(f"can_cast {a} {b}", f"[torch.can_cast(torch.{a}, torch.{b}), torch.can_cast(torch.{b}, torch.{a})]")
      for a in _DT for b in _OTHER],
    ("result_type uint8 scalar", "torch.result_type(U, 5)"),
    ("result_type uint8 float scalar", "torch.result_type(U, 5.5)"),
    ("result_type uint8 int8", "torch.result_type(U, S)"),
    ("result_type uint8 0-d int64", "torch.result_type(U, torch.tensor(5))"),
    ("iinfo", "[str(torch.iinfo(torch.uint8)), str(torch.iinfo(torch.int8)), str(torch.iinfo(torch.int16))]"),
    ("iinfo fields", "[(i.bits, i.min, i.max, i.dtype) for i in "
                     "(torch.iinfo(torch.uint8), torch.iinfo(torch.int8), torch.iinfo(torch.int16))]"),
    ("dtype attributes", "[(d.is_signed, d.is_floating_point, d.itemsize) for d in "
                         "(torch.uint8, torch.int8, torch.int16)]"),
    ("short is int16", "torch.short is torch.int16"),
    # ---- comparisons -----------------------------------------------------------------------------------
    ("uint8 == 200", "U == 200"),
    ("uint8 > int8", "U > S"),
    ("int8 < 2.5", "S < 2.5"),
    ("int16 >= int16", "H >= H.flip(0)"),
    ("uint8 != uint8", "U != U.flip(0)"),
    ("eq uint8 -1", "U == -1"),
    ("equal", "torch.equal(U, U.clone())"),
    # ---- reductions ------------------------------------------------------------------------------------
    ("sum uint8 is int64", "U.sum()"),
    ("sum int8", "S.sum()"),
    ("sum int16", "H.sum()"),
    ("sum dim", "U.reshape(2, 3).sum(1)"),
    ("sum dtype=uint8 wraps", "U.sum(dtype=torch.uint8)"),
    ("prod int8", "t([2, -3, 4], torch.int8).prod()"),
    ("cumsum uint8", "U.cumsum(0)"),
    ("max uint8", "U.max()"),
    ("min int8", "S.min()"),
    ("max dim", "H.reshape(2, 3).max(1)"),
    ("argmax uint8", "U.argmax()"),
    ("argmin int16", "H.argmin()"),
    ("amax", "S.reshape(3, 2).amax(0)"),
    ("mean uint8 refused", "U.mean()"),
    ("mean float dtype", "U.mean(dtype=torch.float32)"),
    ("sort uint8", "U.sort()"),
    ("topk int8", "S.topk(2)"),
    ("unique", "torch.unique(t([3, 1, 3, 200], torch.uint8))"),
    ("any all", "[S.any(), U.all()]"),
    ("count_nonzero", "torch.count_nonzero(U)"),
    # ---- shape ops, indexing ---------------------------------------------------------------------------
    ("reshape transpose", "U.reshape(2, 3).t().contiguous()"),
    ("cat", "torch.cat([U, U])"),
    ("stack", "torch.stack([S, S])"),
    ("index int", "U[3]"),
    ("slice", "H[1:5:2]"),
    ("index by long", "S[torch.tensor([0, 5, 2], device=dev)]"),
    ("index by uint8 mask", "warned(lambda: torch.tensor([5.0, 6.0, 7.0], device=dev)"
                            "[t([1, 0, 1], torch.uint8)])"),
    ("index by int8 refused", "torch.tensor([5.0, 6.0], device=dev)[t([1, 0], torch.int8)]"),
    ("bool mask of uint8", "U[U > 100]"),
    ("setitem uint8", "(lambda x: (x.__setitem__(slice(0, 2), 300 - 256), x)[1])(U.clone())"),
    ("item", "[U[0].item(), S[0].item(), type(U[0].item()).__name__]"),
    ("tolist", "H.tolist()"),
    # ---- printing --------------------------------------------------------------------------------------
    ("repr uint8", "repr(t([1, 2], torch.uint8))"),
    ("repr int8", "repr(S)"),
    ("repr int16", "repr(H.reshape(2, 3))"),
    ("repr 0-d", "repr(torch.tensor(7, dtype=torch.uint8, device=dev))"),
    ("str dtypes", "[str(torch.uint8), repr(torch.int8), str(torch.short)]"),
    # ---- safetensors -----------------------------------------------------------------------------------
    ("safetensors U8 I8 I16", "(lambda d: [d['u'], d['s'], d['h']])(roundtrip({'u': U, 's': S, 'h': H}))"),
    # ---- more ops: linear algebra, indexing, bitwise, rounding, in-place rules ----------------------------
    ("matmul uint8", "t([[1, 2], [3, 4]], torch.uint8) @ t([[100, 2], [3, 100]], torch.uint8)"),
    ("matmul int16", "H.reshape(2, 3) @ H.reshape(3, 2)"),
    ("mv int8", "S.reshape(2, 3) @ t([1, 2, 3], torch.int8)"),
    ("index_select", "U.index_select(0, torch.tensor([5, 0], device=dev))"),
    ("gather", "S.reshape(2, 3).gather(1, torch.tensor([[2, 0], [1, 1]], device=dev))"),
    ("scatter_add wraps", "torch.zeros(2, dtype=torch.uint8, device=dev).scatter_add(0, "
                          "torch.tensor([0, 0, 1], device=dev), t([200, 100, 5], torch.uint8))"),
    ("index_put", "(lambda x: (x.index_put_((torch.tensor([1], device=dev),), t([9], torch.int8)), x)[1])(S.clone())"),
    ("masked_fill", "U.masked_fill(U > 100, 3)"),
    ("cumprod int8", "t([2, 3, 5, 7], torch.int8).cumprod(0)"),
    ("flip roll", "[U.flip(0), S.roll(2)]"),
    ("repeat", "S.repeat(2)"),
    ("pad", "torch.nn.functional.pad(U, (1, 2))"),
    ("abs int8 -128", "t([-128, -5], torch.int8).abs()"),
    ("neg int16 -32768", "t([-32768], torch.int16).neg()"),
    ("div trunc", "torch.div(S, 7, rounding_mode='trunc')"),
    ("div floor", "torch.div(S, 7, rounding_mode='floor')"),
    ("remainder neg", "torch.remainder(S, -7)"),
    ("fmod", "torch.fmod(S, 7)"),
    ("int8 // 0", "S // 0"),
    ("uint8 % 0", "U % 0"),
    ("min max dim", "[S.reshape(2, 3).min(1), U.reshape(3, 2).max(0)]"),
    ("median", "U.median()"),
    ("sort descending", "S.sort(descending=True)"),
    ("argsort", "H.argsort()"),
    ("nonzero", "torch.nonzero(t([0, 3, 0, 255], torch.uint8))"),
    ("unique counts", "torch.unique(t([3, 1, 3, 200], torch.uint8), return_counts=True)"),
    ("bincount", "torch.bincount(t([1, 1, 3], torch.uint8))"),
    ("clamp int8 out of range", "S.clamp(-300, 300)"),
    ("clamp uint8 float bound", "U.clamp(min=0.5)"),
    ("clamp uint8 -1 is 255", "U.clamp(-1, 3)"),
    ("clamp uint8 300 refused", "U.clamp(0, 300)"),
    ("clamp int16 -300", "H.clamp(-300, 3)"),
    ("clamp int8 max only", "S.clamp(max=3)"),
    ("clamp uint8 min only", "U.clamp(min=100)"),
    ("clamp uint8 tensor bounds wrap", "U.clamp(torch.tensor(-1, device=dev), torch.tensor(300, device=dev))"),
    ("sum int16 dim keepdim", "H.reshape(2, 3).sum(0, keepdim=True)"),
    ("prod uint8 is int64", "U[:2].prod()"),
    ("float division uint8 by uint8", "U / t([3, 3, 3, 3, 3, 3], torch.uint8)"),
    ("pow int8 negative exp", "S ** -1"),
    ("sqrt uint8", "U.sqrt()"),
    ("sigmoid int16 float", "t([1, -2], torch.int16).sigmoid()"),
    ("isclose", "torch.isclose(U, U)"),
    ("allclose", "torch.allclose(S, S)"),
    ("lerp refused", "torch.lerp(U, U, 0.5)"),
    ("mul_ by float refused", "S.clone().mul_(1.5)"),
    ("float32 += uint8", "(lambda x: (x.add_(U), x)[1])(torch.zeros(6, device=dev))"),
    ("uint8 += int16 refused dtype", "(lambda x: x.add_(H))(U.clone())"),
    ("uint8 += int8", "(lambda x: (x.add_(S), x)[1])(U.clone())"),
    ("view as", "U.view(2, 3)[1]"),
    ("expand add", "t([1], torch.uint8).expand(3) + t([255, 1, 2], torch.uint8)"),
    ("chunk", "S.chunk(2)"),
    ("tensor from tensor", "torch.tensor(U)"),
    ("clone detach", "U.clone().detach()"),
    ("one_hot uint8 refused", "torch.nn.functional.one_hot(t([1, 2], torch.uint8))"),
    ("eye uint8", "torch.eye(2, dtype=torch.uint8, device=dev)"),
    ("linspace int16", "torch.linspace(0, 100, 5, dtype=torch.int16, device=dev)"),
    ("randint uint8 dtype", "torch.randint(0, 5, (3,), dtype=torch.uint8, device=dev).dtype"),
    ("randint uint8 high 300 refused", "torch.randint(0, 300, (3,), dtype=torch.uint8, device=dev)"),
    ("randint uint8 low -1 refused", "torch.randint(-1, 5, (3,), dtype=torch.uint8, device=dev)"),
    ("randint int8 low -129 refused", "torch.randint(-129, 0, (3,), dtype=torch.int8, device=dev)"),
    ("randint int16 high 40000 refused", "torch.randint(0, 40000, (3,), dtype=torch.int16, device=dev)"),
    ("max of two", "torch.max(U, t([1, 2, 3, 4, 5, 6], torch.uint8))"),
    ("where scalar", "torch.where(S > 0, S, 0)"),
    ("sum bool to uint8", "torch.tensor([True, True], device=dev).sum(dtype=torch.uint8)"),
    ("floor int8", "S.floor()"),
    ("round uint8", "U.round()"),
    ("trunc int16", "H.trunc()"),
    # ---- ops PyTorch refuses for these dtypes, or answers in them ----------------------------------------
    ("msort", "U.msort()"),
    ("searchsorted", "torch.searchsorted(t([1, 2, 3], torch.uint8), U)"),
    ("cummax", "S.cummax(0)"),
    ("logcumsumexp refused", "torch.logcumsumexp(U, 0)"),
    ("max_pool1d refused", "torch.nn.functional.max_pool1d(U.reshape(1, 1, 6), 2)"),
    ("kthvalue", "S.kthvalue(2)"),
    ("mode", "t([3, 1, 3, 2], torch.uint8).mode()"),
    ("histc refused", "torch.histc(U)"),
    ("median dim", "H.reshape(2, 3).median(1)"),
    ("repeat_interleave", "torch.repeat_interleave(S, 2)"),
    ("logsumexp", "U.logsumexp(0)"),
    ("cross_entropy refused", "torch.nn.functional.cross_entropy(U.reshape(2, 3), torch.tensor([1, 0], device=dev))"),
]
