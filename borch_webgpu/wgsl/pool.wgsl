// Pooling over the last two dims of (N, C, H, W) inputs (1-D pooling runs with H = 1), forward and
// backward, one thread per output element (forward) or per input element (backward). The input and
// the upstream gradient are read through their strides; outputs are new contiguous memory.
// Windows are PyTorch's:
//   regular   rows oh*SH - PH + kh*DH for kh < KH, those inside [0, H) (the same for columns)
//   adaptive  rows [floor(oh*H/OH), ceil((oh+1)*H/OH)) (ADAPTIVE, a pipeline constant)
// The backward kernels gather: input element (ih, iw) walks the outputs whose windows hold it, in
// PyTorch's order (oh, then ow, ascending), and adds their contributions: the same sum in the same
// order as PyTorch's scatter, with no atomics.
//   max   dy where the saved index (ih*W + iw within the plane) names this element
//   avg   dy / the window's divisor (adaptive: dy / kh / kw)
//
// Uniform words: 0 element count (outputs, or inputs for backward), 1 C, 2 H, 3 W, 4 OH, 5 OW,
// 6 KH, 7 KW, 8 SH, 9 SW, 10 PH, 11 PW, 12 DH, 13 DW, 14 x offset, 15..18 x strides (n, c, h, w),
// 19 dy offset, 20..23 dy strides, 24 count_include_pad, 25 divisor_override (0: none).
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

alias S = {{S}};
alias A = {{A}};  // average pooling's sum: f32, or i32 for integer tensors (PyTorch's truncating division)
const ADAPTIVE = {{ADAPTIVE}};

fn is_nan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }

// element offset of x[n, c, ih, iw] for plane p = n*C + c
fn x_at(p: u32, ih: u32, iw: u32) -> u32 {
  return pu(14u) + (p / pu(1u)) * pu(15u) + (p % pu(1u)) * pu(16u) + ih * pu(17u) + iw * pu(18u);
}
fn dy_at(p: u32, oh: u32, ow: u32) -> u32 {
  return pu(19u) + (p / pu(1u)) * pu(20u) + (p % pu(1u)) * pu(21u) + oh * pu(22u) + ow * pu(23u);
}

// [start, end) of the adaptive window of output o (of O) over an input of size I
fn ad_start(o: u32, I: u32, O: u32) -> u32 { return (o / O) * I + ((o % O) * I) / O; }
fn ad_end(o: u32, I: u32, O: u32) -> u32 { return 1u + ((o + 1u) * I - 1u) / O; }

// the outputs whose windows hold input i: [first, last] (empty when first > last), as i32
fn covering(i: u32, I: u32, O: u32, K: u32, S_: u32, Pd: u32, D: u32) -> vec2<i32> {
  if (ADAPTIVE) {
    return vec2<i32>(i32((i * O) / I), i32(((i + 1u) * O + I - 1u) / I) - 1);
  }
  let hi = i32(i + Pd);
  let lo = hi - i32((K - 1u) * D);
  // ceil(lo / S) for any sign, floor(hi / S) for hi >= 0
  let first = select(-((-lo) / i32(S_)), (lo + i32(S_) - 1) / i32(S_), lo > 0);
  return vec2<i32>(max(first, 0), min(hi / i32(S_), i32(O) - 1));
}

// average pooling: [h0, h1) x [w0, w1) is the window of (oh, ow) clipped to the input
struct Win { h0: u32, h1: u32, w0: u32, w1: u32 }

fn window(oh: u32, ow: u32) -> Win {
  if (ADAPTIVE) {
    return Win(ad_start(oh, pu(2u), pu(4u)), ad_end(oh, pu(2u), pu(4u)),
               ad_start(ow, pu(3u), pu(5u)), ad_end(ow, pu(3u), pu(5u)));
  }
  let hs = i32(oh * pu(8u)) - i32(pu(10u));
  let ws = i32(ow * pu(9u)) - i32(pu(11u));
  let he = min(hs + i32(pu(6u)), i32(pu(2u) + pu(10u)));
  let we = min(ws + i32(pu(7u)), i32(pu(3u) + pu(11u)));
  return Win(u32(max(hs, 0)), u32(min(he, i32(pu(2u)))), u32(max(ws, 0)), u32(min(we, i32(pu(3u)))));
}

fn average(sum: A, oh: u32, ow: u32, w: Win) -> A {
  if (ADAPTIVE) { return sum / A(w.h1 - w.h0) / A(w.w1 - w.w0); }
  if (pu(25u) != 0u) { return sum / A(bitcast<i32>(pu(25u))); }
  if (pu(24u) != 0u) {
    let hs = i32(oh * pu(8u)) - i32(pu(10u));
    let ws = i32(ow * pu(9u)) - i32(pu(11u));
    let he = min(hs + i32(pu(6u)), i32(pu(2u) + pu(10u)));
    let we = min(ws + i32(pu(7u)), i32(pu(3u) + pu(11u)));
    return sum / A((he - hs) * (we - ws));
  }
  return sum / A((w.h1 - w.h0) * (w.w1 - w.w0));
}

fn gid(wg: vec3<u32>, nwg: vec3<u32>, li: u32) -> u32 { return (wg.y * nwg.x + wg.x) * 256u + li; }

//@op max_fwd
// out = max over the window (NaN wins, the last NaN in scan order; ties: the first), idx = its
// position ih*W + iw in the plane; an all -inf window gives its first element's position.
@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read_write> idx: array<i32>;
@group(0) @binding(3) var<storage, read> X: array<S>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = gid(wg, nwg, li);
  if (i >= pu(0u)) { return; }
  let OW = pu(5u);
  let ohw = pu(4u) * OW;
  let p = i / ohw;
  let oh = (i % ohw) / OW;
  let ow = i % OW;
  var h0: u32; var hn: u32; var dh: u32;
  var w0: u32; var wn: u32; var dw: u32;
  if (ADAPTIVE) {
    h0 = ad_start(oh, pu(2u), pu(4u)); hn = ad_end(oh, pu(2u), pu(4u)) - h0; dh = 1u;
    w0 = ad_start(ow, pu(3u), OW); wn = ad_end(ow, pu(3u), OW) - w0; dw = 1u;
  } else {
    h0 = oh * pu(8u) - pu(10u); hn = pu(6u); dh = pu(12u);
    w0 = ow * pu(9u) - pu(11u); wn = pu(7u); dw = pu(13u);
  }
  var best = {{LOWEST}};
  var at = -1;
  var nan_seen = false;
  for (var a = 0u; a < hn; a++) {
    let ih = h0 + a * dh;
    if (ih >= pu(2u)) { continue; }
    for (var b = 0u; b < wn; b++) {
      let iw = w0 + b * dw;
      if (iw >= pu(3u)) { continue; }
      let v = X[x_at(p, ih, iw)];
      let pos = i32(ih * pu(3u) + iw);
      if (at < 0) { at = pos; }
      {{UPDATE}}
    }
  }
  out[i] = best;
  idx[i] = at;
}

//@op max_bwd
// dx[p, ih, iw] = sum of dy[p, oh, ow] over the covering outputs whose saved index is this element
@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read> DY: array<S>;
@group(0) @binding(3) var<storage, read> idx: array<i32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = gid(wg, nwg, li);
  if (i >= pu(0u)) { return; }
  let W = pu(3u);
  let hw = pu(2u) * W;
  let p = i / hw;
  let ih = (i % hw) / W;
  let iw = i % W;
  let rows = covering(ih, pu(2u), pu(4u), pu(6u), pu(8u), pu(10u), pu(12u));
  let cols = covering(iw, W, pu(5u), pu(7u), pu(9u), pu(11u), pu(13u));
  let me = i32(ih * W + iw);
  let plane = p * pu(4u) * pu(5u);
  var acc = 0.0f;
  for (var oh = rows.x; oh <= rows.y; oh++) {
    for (var ow = cols.x; ow <= cols.y; ow++) {
      if (idx[plane + u32(oh) * pu(5u) + u32(ow)] == me) { acc += f32(DY[dy_at(p, u32(oh), u32(ow))]); }
    }
  }
  out[i] = S(acc);
}

//@op avg_fwd
// out = (sum over the window in scan order) / divisor: PyTorch's count_include_pad, ceil_mode and
// divisor_override rules; adaptive windows divide by their height, then by their width
@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read> X: array<S>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = gid(wg, nwg, li);
  if (i >= pu(0u)) { return; }
  let OW = pu(5u);
  let ohw = pu(4u) * OW;
  let p = i / ohw;
  let oh = (i % ohw) / OW;
  let ow = i % OW;
  let w = window(oh, ow);
  var sum = A(0);
  for (var ih = w.h0; ih < w.h1; ih++) {
    for (var iw = w.w0; iw < w.w1; iw++) { sum += A(X[x_at(p, ih, iw)]); }
  }
  out[i] = S(average(sum, oh, ow, w));
}

//@op avg_bwd
// dx[p, ih, iw] = sum over the covering outputs of dy[p, oh, ow] / their divisor
@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read> DY: array<S>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = gid(wg, nwg, li);
  if (i >= pu(0u)) { return; }
  let W = pu(3u);
  let hw = pu(2u) * W;
  let p = i / hw;
  let ih = (i % hw) / W;
  let iw = i % W;
  let rows = covering(ih, pu(2u), pu(4u), pu(6u), pu(8u), pu(10u), 1u);
  let cols = covering(iw, W, pu(5u), pu(7u), pu(9u), pu(11u), 1u);
  var acc = 0.0f;
  for (var oh = rows.x; oh <= rows.y; oh++) {
    for (var ow = cols.x; ow <= cols.y; ow++) {
      let o = vec2<u32>(u32(oh), u32(ow));
      acc += average(A(DY[dy_at(p, o.x, o.y)]), o.x, o.y, window(o.x, o.y));
    }
  }
  out[i] = S(acc);
}
