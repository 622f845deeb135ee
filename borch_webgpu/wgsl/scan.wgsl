// Scan skeleton: inclusive scans (cumsum, cumprod) along one dim of a strided view, written to a
// strided output. A row is the run along the scanned dim for one position of the other ("kept")
// dims; rows are numbered row-major over the kept dims, which are coalesced by the caller.
// borch_webgpu/device/gpu_scan_sort.py fills the double-brace slots; the op is one //@op block,
// the entry point one //@mode section.
//
// Uniform words: 0 M rows, 1 n row length, 2 kept rank, 3 input offset, 4 input stride along the dim,
// 5 output offset, 6 output stride along the dim, 7 chunk (elements per workgroup in modes 0 and 1),
// 8 G (chunks per row), 12..23 kept shape, 24..35 input kept strides, 36..47 output kept strides.
// Offsets and strides are u32 and all index arithmetic wraps, so a reversed scan (the backward of
// cumsum) passes the last element as the offset and a negative stride in two's complement.
//
// Modes: 0 one workgroup per chunk of a row, tiles of 1024 scanned in order with a running carry
// (with {{CARRY}} the chunk starts from part[], the exclusive scan of the chunk totals); 1 chunk
// totals into part[]; 2 exclusive scan of part[] in place, one workgroup per row; 3 one thread per
// row (short rows). A long row on few rows runs 1, 2, 0: read twice, written once.
//
// An op block defines the state S and s_zero() (the identity), s_of(x: C) -> S, s_add(a, b) -> S
// (a comes first in the row) and s_out(a: S) -> R.
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

alias C = {{C}};
alias R = {{R}};

{{COMMON}}

// Rounded f32 add / subtract / multiply that the compiler cannot reassociate or simplify: each
// result passes through an xor with uniform word 63, which the runtime never writes (always 0) but
// which is unknown when the shader is compiled. The double-emulating ops need every rounding where
// it is written; without this, NVIDIA's Vulkan compiler folds their error terms away (seen on an
// H200 through Dawn: (a + c) - a came out as c).
fn opq(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) ^ pu(63u)); }
fn fadd(a: f32, b: f32) -> f32 { return opq(a + b); }
fn fsub(a: f32, b: f32) -> f32 { return opq(a - b); }
fn fmul(a: f32, b: f32) -> f32 { return opq(a * b); }

// x * 2^e in two steps, so that no ldexp exponent leaves [-126, 127] (WGSL leaves those indeterminate)
fn scale2(x: f32, e: i32) -> f32 {
  let h = e / 2;
  return ldexp(ldexp(x, h), e - h);
}

{{OP}}

{{BINDINGS}}

fn row_base(r: u32, strides: u32, offset: u32) -> u32 {
  var rem = r;
  var idx = offset;
  var d = pu(2u);
  loop {
    if (d == 0u) { break; }
    d -= 1u;
    let size = pu(12u + d);
    idx += (rem % size) * pu(strides + d);
    rem = rem / size;
  }
  return idx;
}

const TILE: u32 = 1024u;
var<workgroup> sh: array<S, 1024>;
var<workgroup> tot: array<S, 256>;

// Inclusive scan of sh[0..1024) after `carry`; thread li owns sh[4li..4li+3]. Returns carry + total.
fn tile_scan(li: u32, carry: S) -> S {
  let b = li * 4u;
  let v0 = sh[b];
  let v1 = s_add(v0, sh[b + 1u]);
  let v2 = s_add(v1, sh[b + 2u]);
  let v3 = s_add(v2, sh[b + 3u]);
  tot[li] = v3;
  workgroupBarrier();
  for (var off = 1u; off < 256u; off <<= 1u) {
    var v = tot[li];
    if (li >= off) { v = s_add(tot[li - off], v); }
    workgroupBarrier();
    tot[li] = v;
    workgroupBarrier();
  }
  var before = carry;
  if (li > 0u) { before = s_add(carry, tot[li - 1u]); }
  sh[b] = s_add(before, v0);
  sh[b + 1u] = s_add(before, v1);
  sh[b + 2u] = s_add(before, v2);
  sh[b + 3u] = s_add(before, v3);
  let total = s_add(carry, tot[255]);
  workgroupBarrier();
  return total;
}

//@mode 0
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let flat = wg.y * nwg.x + wg.x;
  let r = flat / pu(8u);
  if (r >= pu(0u)) { return; }
  let lo = (flat % pu(8u)) * pu(7u);
  let hi = min(pu(1u), lo + pu(7u));
  let ib = row_base(r, 24u, pu(3u));
  let ob = row_base(r, 36u, pu(5u));
  var carry = {{CARRY}};
  for (var base = lo; base < hi; base += TILE) {
    for (var e = 0u; e < 4u; e++) {
      let j = base + e * 256u + li;
      var v = s_zero();
      if (j < hi) { v = s_of(load(ib, j)); }
      sh[e * 256u + li] = v;
    }
    workgroupBarrier();
    carry = tile_scan(li, carry);
    for (var e = 0u; e < 4u; e++) {
      let j = base + e * 256u + li;
      if (j < hi) { out[ob + j * pu(6u)] = s_out(sh[e * 256u + li]); }
    }
    workgroupBarrier();
  }
}

//@mode 1
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let flat = wg.y * nwg.x + wg.x;
  let r = flat / pu(8u);
  if (r >= pu(0u)) { return; }
  let lo = (flat % pu(8u)) * pu(7u);
  let hi = min(pu(1u), lo + pu(7u));
  let ib = row_base(r, 24u, pu(3u));
  // sums and products commute, so the loads are coalesced; the pairwise tree keeps errors small
  var acc = s_zero();
  for (var j = lo + li; j < hi; j += 256u) { acc = s_add(acc, s_of(load(ib, j))); }
  tot[li] = acc;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    var v = s_zero();
    if (li < s) { v = s_add(tot[2u * li], tot[2u * li + 1u]); }
    workgroupBarrier();
    if (li < s) { tot[li] = v; }
    workgroupBarrier();
  }
  if (li == 0u) { part[flat] = tot[0]; }
}

//@mode 2
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let r = wg.y * nwg.x + wg.x;
  if (r >= pu(0u)) { return; }
  let G = pu(8u);
  var carry = s_zero();
  for (var base = 0u; base < G; base += TILE) {
    for (var e = 0u; e < 4u; e++) {
      let j = base + e * 256u + li;
      var v = s_zero();
      if (j < G) { v = part[r * G + j]; }
      sh[e * 256u + li] = v;
    }
    workgroupBarrier();
    let first = carry;
    carry = tile_scan(li, carry);
    for (var e = 0u; e < 4u; e++) {
      let i = e * 256u + li;
      let j = base + i;
      if (j < G) {
        var v = first;
        if (i > 0u) { v = sh[i - 1u]; }
        part[r * G + j] = v;
      }
    }
    workgroupBarrier();
  }
}

//@mode 3
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let r = (wg.y * nwg.x + wg.x) * 256u + li;
  if (r >= pu(0u)) { return; }
  let ib = row_base(r, 24u, pu(3u));
  let ob = row_base(r, 36u, pu(5u));
  var acc = s_zero();
  for (var j = 0u; j < pu(1u); j++) {
    acc = s_add(acc, s_of(load(ib, j)));
    out[ob + j * pu(6u)] = s_out(acc);
  }
}

//@op sum_f
// float32 sums carried as (hi + lo) * 2^k with hi in [1, 2) and lo rounded to a multiple of 2^-52 (the
// float64 grid) after every add: PyTorch's CPU kernel accumulates float32 in double, and this follows it,
// in precision (including double's loss of tiny addends next to huge ones) and in range (a prefix may
// pass 3.4e38 and come back), where plain f32 would drift by ~sqrt(n) ulps over long rows. The
// error-free transforms use additions and exact power-of-two scalings only (through fadd/fsub, which
// the compiler may not reassociate). -0.0 enters as +0.0: PyTorch's sum starts from +0.
struct S { hi: f32, lo: f32, k: i32 }
fn s_zero() -> S { return S(0.0f, 0.0f, 0); }
fn s_norm(hi: f32, lo: f32, k: i32) -> S {
  var h = hi;
  var l = lo;
  var kk = k;
  var eb = i32((bitcast<u32>(h) >> 23u) & 0xffu);
  if (eb == 255 || h == 0.0f) { return S(h, 0.0f, 0); }
  if (eb == 0) {  // subnormal: scale up first
    h = h * 18446744073709551616.0f;
    l = l * 18446744073709551616.0f;
    kk -= 64;
    eb = i32((bitcast<u32>(h) >> 23u) & 0xffu);
  }
  let e = eb - 127;
  return S(scale2(h, -e), round(scale2(l, 52 - e)) * 2.220446049250313e-16f, kk + e);
}
fn s_of(x: C) -> S { return s_norm(select(x, 0.0f, bitcast<u32>(x) == 0x80000000u), 0.0f, 0); }
fn two_sum(a: f32, b: f32) -> vec2<f32> {
  let s = fadd(a, b);
  let bb = fsub(s, a);
  return vec2<f32>(s, fadd(fsub(a, fsub(s, bb)), fsub(b, bb)));
}
fn quick_two_sum(a: f32, b: f32) -> vec2<f32> {
  let s = fadd(a, b);
  return vec2<f32>(s, fsub(b, fsub(s, a)));
}
fn s_add(a: S, b: S) -> S {
  if (!is_finite(a.hi) || !is_finite(b.hi)) { return S(a.hi + b.hi, 0.0f, 0); }
  if (a.hi == 0.0f) { return b; }
  if (b.hi == 0.0f) { return a; }
  let K = max(a.k, b.k);
  let da = a.k - K;
  let db = b.k - K;
  // an addend below 2^-60 of the other is under double's rounding: double drops it too
  if (da < -60) { return b; }
  if (db < -60) { return a; }
  let s = two_sum(ldexp(a.hi, da), ldexp(b.hi, db));
  let t = two_sum(ldexp(a.lo, da), ldexp(b.lo, db));
  var u = quick_two_sum(s.x, fadd(s.y, t.x));
  u = quick_two_sum(u.x, fadd(u.y, t.y));
  return s_norm(u.x, u.y, K);
}
fn s_out(a: S) -> R {
  if (!is_finite(a.hi) || a.hi == 0.0f) { return a.hi; }
  let v = select(a.hi + a.lo, a.hi, a.lo == 0.0f);
  if (a.k > 127 || (a.k == 127 && abs(v) >= 2.0f)) { return select(f32_inf(), -f32_inf(), v < 0.0f); }
  if (a.k < -150) { return select(0.0f, -0.0f, v < 0.0f); }
  if (a.k < -126) { return ldexp(scale2(v, -126), a.k + 126); }
  return scale2(v, a.k);
}

//@op sum_i
// integers wrap at 32 bits (int64 is held as int32 on WebGPU)
alias S = C;
fn s_zero() -> S { return S(0); }
fn s_of(x: C) -> S { return x; }
fn s_add(a: S, b: S) -> S { return a + b; }
fn s_out(a: S) -> R { return R(a); }

//@op prod_f
// float32 products carried as (hi + lo) * 2^k with hi in [1, 2): double's precision and exponent range,
// as PyTorch accumulates in double (a row may pass below 1e-38 or above 3e38 and come back), rounded to
// f32 once. The rounding error of hi * hi comes from Dekker's product on halves split by masking the
// low 12 mantissa bits: every partial product is exact, so it holds whether or not a compiler contracts
// into fma (WGSL's fma may be unfused: SwiftShader's is). Zero, inf and NaN are kept as hi with k = 0;
// k past double's range becomes inf or 0.
struct S { hi: f32, lo: f32, k: i32 }
fn s_norm(hi: f32, lo: f32, k: i32) -> S {
  var h = hi;
  var l = lo;
  var kk = k;
  var eb = i32((bitcast<u32>(h) >> 23u) & 0xffu);
  if (eb == 255 || h == 0.0f) { return S(h, 0.0f, 0); }
  if (eb == 0) {  // subnormal: scale up first
    h = h * 18446744073709551616.0f;
    l = l * 18446744073709551616.0f;
    kk -= 64;
    eb = i32((bitcast<u32>(h) >> 23u) & 0xffu);
  }
  let e = eb - 127;
  kk += e;
  if (kk > 1023) { return S(select(f32_inf(), -f32_inf(), h < 0.0f), 0.0f, 0); }
  if (kk < -1075) { return S(select(0.0f, -0.0f, h < 0.0f), 0.0f, 0); }
  return S(scale2(h, -e), scale2(l, -e), kk);
}
fn s_zero() -> S { return S(1.0f, 0.0f, 0); }
fn s_of(x: C) -> S { return s_norm(x, 0.0f, 0); }
fn split_hi(a: f32) -> f32 { return bitcast<f32>(bitcast<u32>(a) & 0xfffff000u); }
fn s_add(a: S, b: S) -> S {
  let p = fmul(a.hi, b.hi);
  if (!is_finite(p) || p == 0.0f) { return S(p, 0.0f, 0); }
  let ah = split_hi(a.hi);
  let al = fsub(a.hi, ah);
  let bh = split_hi(b.hi);
  let bl = fsub(b.hi, bh);
  let err = fadd(fadd(fadd(fsub(fmul(ah, bh), p), fmul(ah, bl)), fmul(al, bh)), fmul(al, bl));
  let e = fadd(err, fadd(fmul(a.hi, b.lo), fmul(a.lo, b.hi)));
  let s = fadd(p, e);
  return s_norm(s, fsub(e, fsub(s, p)), a.k + b.k);
}
fn s_out(a: S) -> R {
  if (!is_finite(a.hi) || a.hi == 0.0f) { return a.hi; }
  let v = select(a.hi + a.lo, a.hi, a.lo == 0.0f);
  if (a.k > 127 || (a.k == 127 && abs(v) >= 2.0f)) { return select(f32_inf(), -f32_inf(), v < 0.0f); }
  if (a.k < -150) { return select(0.0f, -0.0f, v < 0.0f); }
  if (a.k < -126) { return ldexp(scale2(v, -126), a.k + 126); }
  return scale2(v, a.k);
}

//@op prod_i
alias S = C;
fn s_zero() -> S { return S(1); }
fn s_of(x: C) -> S { return x; }
fn s_add(a: S, b: S) -> S { return a * b; }
fn s_out(a: S) -> R { return R(a); }

//@op logaddexp_f
// log(exp(a) + exp(b)) as PyTorch's _log_add_exp_helper: max + log1p(exp(min - max)); a NaN propagates,
// -inf is the identity and +inf absorbs. Carried in float32 (PyTorch's CPU kernel carries a double, so
// long rows differ by a few ulps, which the op's tolerance states).
alias S = f32;
fn s_zero() -> S { return -f32_inf(); }
fn s_of(x: C) -> S { return x; }
fn s_add(a: S, b: S) -> S {
  if (is_nan(a) || is_nan(b)) { return f32_nan(); }
  let hi = max(a, b);
  let lo = min(a, b);
  if (is_inf(lo) && lo < 0.0f) { return hi; }
  if (is_inf(hi)) { return hi; }
  return hi + log1p_f(exp(lo - hi));
}
fn s_out(a: S) -> R { return a; }
