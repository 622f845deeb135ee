// Convolutions as implicit GEMM: the im2col matrix is never built; each tile loader computes the
// address of every element it needs from the conv geometry in the uniform words. One skeleton
// (block `gemm`) serves the three passes; a pass block supplies the operand loaders and the store:
//   fwd     y[n, g*COG + co, oh, ow] = sum_{ci, kh, kw} w[g*COG + co, ci, kh, kw] * x[n, g*CG + ci, ih, iw]
//           GEMM per group: M = COG (co), N = NB*OH*OW (output pixels), K = CG*KH*KW
//   dgrad   dx = the transposed conv of dy (also conv_transpose2d's forward). A strided conv's
//           input pixels fall into SH*SW phases (ih % SH, iw % SW); in one phase only the taps with
//           (ih + PH - kh*DH) % SH == 0 contribute, so each phase is its own dense GEMM
//           (one dispatch each): M = CG (ci), N = NB*HP*WP (the phase's pixels), K = COG*nkh*nkw
//   wgrad   dw[g*COG + co, ci, kh, kw] = sum_{n, oh, ow} dy[n, g*COG + co, oh, ow] * x[n, g*CG + ci, ih, iw]
//           M = COG, N = CG*KH*KW, K = NB*OH*OW: a long reduction and a small output, so K is split
//           across workgroups (split s writes its partial sums to its own slab) and `wgrad_sum` adds them;
//           the bias gradient is one more column of B, all ones.
// ih = oh*SH - PH + kh*DH (the same for w). Index arithmetic is u32 and wraps, so a position left of
// the padding becomes huge and one `< H` test rejects both sides. Accumulation is f32.
//
// Uniform words: 0 NB, 1 C, 2 H, 3 W (conv input), 4 CO, 5 OH, 6 OW (conv output), 7 KH, 8 KW,
// 9 SH, 10 SW, 11 PH, 12 PW (top/left padding), 13 DH, 14 DW, 15 groups, 16 CG (= C / groups),
// 17 COG (= CO / groups), 18 M, 19 N, 20 K, 21 tiles along M, 22 tiles along N, 23 splits,
// 24 K chunk per split, 25 x offset, 26..29 x strides (n, c, h, w), 30 w offset (w is contiguous),
// 31 dy offset, 32..35 dy strides, 36 bias offset, 37 bias stride, 38 wgrad: CG*KH*KW,
// dgrad phase: 40 ph, 41 pw, 42 HP, 43 WP (rows and columns of the phase), 44 nkh, 45 nkw (taps),
// 46 kh0, 47 kw0 (first tap), 48 khs, 49 kws (tap steps), 50 oh of (ih = ph, kh = kh0) (i32 bits),
// 51 the same for ow, 52 change of oh per tap step (khs*DH/SH), 53 the same for ow; split along K
// (forward, one-phase input gradient): 54 channels of the output, 55 its pixels per image; an
// evaluation batch norm in the forward's (or split_sum's) epilogue (device/trace_fusion.py): 56..59
// offsets of its running mean, running var, weight and bias, 60 its eps (f32 bits). A conv dispatch
// that carries a split sum as its tail (device/trace_fusion_tail.py; never one with that epilogue
// or with more than 4 input-gradient phases): 58 its first tail workgroup, 59..62 the sum's words.
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

alias S = {{S}};

//@op gemm
// THREADS threads; thread (tx, ty) computes RM x RN blocks of 4 x 4 outputs: rows
// m0 + i*4*TY + ty*4 + (0..3) and columns n0 + j*4*TX + tx*4 + (0..3), from BK-deep slices of the
// A (BM x BK) and B (BK x BN) tiles held in workgroup memory. SETUP, LOAD and STASH are generated
// (device/gpu_conv.py): on GPUs each thread loads its share of the next slices into registers while
// the current ones are multiplied (LOAD); on SwiftShader STASH loads and stores in one go.
const BM = {{BM}}u;
const BN = {{BN}}u;
const BK = {{BK}}u;
const TX = {{TX}}u;
const TY = {{TY}}u;
// row pitch of the shared tiles in vec4s, padded by one against bank conflicts
const PA = BM / 4u + 1u;
const PB = BN / 4u + 1u;

// the workgroup's index within its GEMM and the GEMM's N, K, tiles along N and K chunk: words 19,
// 20, 22, 24, or those of a strided input gradient's phase (LOCATE: `locate(flat)`; returned, not
// kept in private variables, so that the loop around the barriers stays uniform)
struct Loc { f: u32, n: u32, k: u32, tn: u32, ch: u32 }
{{LOCATE}}

var<workgroup> As: array<vec4<f32>, BK * PA>;   // As[k * PA + m / 4][m % 4] = A[m0 + m, k0 + k]
var<workgroup> Bs: array<vec4<f32>, BK * PB>;   // Bs[k * PB + n / 4][n % 4] = B[k0 + k, n0 + n]

{{PASS}}

@compute @workgroup_size({{THREADS}})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
{{TAIL_CALL}}
  let loc = locate(wg.y * nwg.x + wg.x);
  let flat = loc.f;
  let M = pu(18u);
  let N = loc.n;
  let tiles_n = loc.tn;
  let per_g = pu(21u) * tiles_n;
  let per_split = per_g * pu(15u);
  if (flat >= per_split * pu(23u)) { return; }
  let split = flat / per_split;
  let g = (flat % per_split) / per_g;
  let t = flat % per_g;
  let m0 = (t / tiles_n) * BM;
  let n0 = (t % tiles_n) * BN;
  let k_begin = split * loc.ch;
  let k_end = min(loc.k, k_begin + loc.ch);
  let tx = li % TX;
  let ty = li / TX;
{{SETUP}}
  var k0 = k_begin;
{{LOAD}}
{{ACC_DECL}}
  loop {
    if (k0 >= k_end) { break; }
    workgroupBarrier();
{{STASH}}
    workgroupBarrier();
    k0 += BK;
    if (k0 < k_end) {
{{LOAD}}
    }
    for (var kk = 0u; kk < BK; kk++) {
{{FMA}}
    }
  }
{{EMIT}}
}

fn emit4(g: u32, split: u32, m: u32, n: u32, v: vec4<f32>, M: u32, N: u32) {
  if (m >= M) { return; }
  for (var c = 0u; c < 4u; c++) {
    if (n + c < N) { emit(g, split, m, n + c, v[c]); }
  }
}

//@op fwd
// A = w viewed as (CO, CG*KH*KW), B = im2col(x): B[(ci, kh, kw), (n, oh, ow)]
@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read> X: array<S>;
@group(0) @binding(3) var<storage, read> Wt: array<S>;
{{BIAS_DECL}}
{{BN_EPI}}

fn a_row(g: u32, m: u32) -> vec3<u32> { return vec3<u32>(pu(30u) + (g * pu(17u) + m) * pu(20u), 0u, 0u); }
fn a_kinfo(k: u32) -> vec3<u32> { return vec3<u32>(k, 0u, 0u); }
fn a_load(r: vec3<u32>, k: vec3<u32>, ok: bool) -> f32 { return select(0.0f, f32(Wt[select(0u, r.x + k.x, ok)]), ok); }

// b_col/b_kinfo: .x the element offset of column / row (summed: the element), .y/.z its row/column
fn b_col(g: u32, n: u32) -> vec3<u32> {
  let ohw = pu(5u) * pu(6u);
  let b = n / ohw;
  let r = n % ohw;
  let ih = (r / pu(6u)) * pu(9u) - pu(11u);
  let iw = (r % pu(6u)) * pu(10u) - pu(12u);
  return vec3<u32>(pu(25u) + b * pu(26u) + g * pu(16u) * pu(27u) + ih * pu(28u) + iw * pu(29u), ih, iw);
}
fn b_kinfo(k: u32) -> vec3<u32> {
  let khw = pu(7u) * pu(8u);
  let r = k % khw;
  let dh = (r / pu(8u)) * pu(13u);
  let dw = (r % pu(8u)) * pu(14u);
  return vec3<u32>((k / khw) * pu(27u) + dh * pu(28u) + dw * pu(29u), dh, dw);
}
fn b_load(c: vec3<u32>, k: vec3<u32>, ok0: bool) -> f32 {
  let ok = ok0 & (c.y + k.y < pu(2u)) & (c.z + k.z < pu(3u));
  return select(0.0f, f32(X[select(0u, c.x + k.x, ok)]), ok);
}

fn emit(g: u32, split: u32, m: u32, n: u32, v: f32) {
{{EMIT_SPLIT}}
  let ohw = pu(5u) * pu(6u);
  let co = g * pu(17u) + m;
  let o = (n / ohw) * pu(4u) * ohw + co * ohw + n % ohw;
  out[o] = S({{EPI}}(co, o, v{{BIAS}}));
}

//@op dgrad
// A = w[g*COG + co, ci, kh, kw] as (CG, (co, taps of the phase)), B = dy gathered at the phase's taps.
// One dispatch: word 39 = 0, the phase's words are 40..53 (a conv of stride 1: one phase, maybe split
// along K); word 39 = P > 1 phases, all of them, phase p's workgroups from word 54 + p on (phases
// in order, ph outer): locate() derives each phase's words (dp) from the geometry, as
// device/gpu_conv.py's _taps does.
@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read> DY: array<S>;
@group(0) @binding(3) var<storage, read> Wt: array<S>;

var<private> dp: array<u32, 14>;   // words 40..53 of the workgroup's phase

fn gcd_u(a0: u32, b0: u32) -> u32 {
  var a = a0;
  var b = b0;
  loop { if (b == 0u) { break; } let t = a % b; a = b; b = t; }
  return a;
}
// (first tap, tap step, tap count) of the taps t < k with (phase + pad - t*d) % s == 0
fn taps(phase: u32, pad: u32, k: u32, s: u32, d: u32) -> vec3<u32> {
  var first = 0u;
  var n = 0u;
  for (var t = 0u; t < k; t++) {
    if ((i32(phase + pad) - i32(t * d)) % i32(s) == 0) {
      if (n == 0u) { first = t; }
      n++;
    }
  }
  return vec3<u32>(first, select(1u, s / gcd_u(s, d), n > 0u), n);
}

fn locate(f: u32) -> Loc {
  let P = pu(39u);
  if (P == 0u) {
    for (var i = 0u; i < 14u; i++) { dp[i] = pu(40u + i); }
    return Loc(f, pu(19u), pu(20u), pu(22u), pu(24u));
  }
  var p = 0u;
  for (var q = 1u; q < P; q++) { if (f >= pu(54u + q)) { p = q; } }
  let nw = min(pu(10u), pu(3u));
  let ph = p / nw;
  let pw = p % nw;
  let th = taps(ph, pu(11u), pu(7u), pu(9u), pu(13u));
  let tw = taps(pw, pu(12u), pu(8u), pu(10u), pu(14u));
  let hp = (pu(2u) - ph + pu(9u) - 1u) / pu(9u);
  let wp = (pu(3u) - pw + pu(10u) - 1u) / pu(10u);
  dp[0] = ph; dp[1] = pw; dp[2] = hp; dp[3] = wp; dp[4] = th.z; dp[5] = tw.z;
  dp[6] = th.x; dp[7] = tw.x; dp[8] = th.y; dp[9] = tw.y;
  dp[10] = bitcast<u32>((i32(ph + pu(11u)) - i32(th.x * pu(13u))) / i32(pu(9u)));
  dp[11] = bitcast<u32>((i32(pw + pu(12u)) - i32(tw.x * pu(14u))) / i32(pu(10u)));
  dp[12] = th.y * pu(13u) / pu(9u);
  dp[13] = tw.y * pu(14u) / pu(10u);
  let n = pu(0u) * hp * wp;
  let k = pu(17u) * th.z * tw.z;
  return Loc(f - pu(54u + p), n, k, (n + BN - 1u) / BN, k);
}

fn a_row(g: u32, m: u32) -> vec3<u32> {
  let khw = pu(7u) * pu(8u);
  return vec3<u32>(pu(30u) + (g * pu(17u) * pu(16u) + m) * khw, 0u, 0u);
}
fn a_kinfo(k: u32) -> vec3<u32> {
  let taps = dp[4] * dp[5];
  let co = k / taps;
  let r = k % taps;
  let kh = dp[6] + (r / dp[5]) * dp[8];
  let kw = dp[7] + (r % dp[5]) * dp[9];
  return vec3<u32>(co * pu(16u) * pu(7u) * pu(8u) + kh * pu(8u) + kw, 0u, 0u);
}
fn a_load(r: vec3<u32>, k: vec3<u32>, ok: bool) -> f32 { return select(0.0f, f32(Wt[select(0u, r.x + k.x, ok)]), ok); }

// .x element offsets (summed: the element), .y/.z the output row/column before the tap's shift
fn b_col(g: u32, n: u32) -> vec3<u32> {
  let pix = dp[2] * dp[3];
  let b = n / pix;
  let r = n % pix;
  let oh = r / dp[3] + dp[10];
  let ow = r % dp[3] + dp[11];
  return vec3<u32>(pu(31u) + b * pu(32u) + g * pu(17u) * pu(33u) + oh * pu(34u) + ow * pu(35u), oh, ow);
}
fn b_kinfo(k: u32) -> vec3<u32> {
  let taps = dp[4] * dp[5];
  let r = k % taps;
  let sh = (r / dp[5]) * dp[12];
  let sw = (r % dp[5]) * dp[13];
  return vec3<u32>((k / taps) * pu(33u) - sh * pu(34u) - sw * pu(35u), sh, sw);
}
fn b_load(c: vec3<u32>, k: vec3<u32>, ok0: bool) -> f32 {
  let ok = ok0 & (c.y - k.y < pu(5u)) & (c.z - k.z < pu(6u));
  return select(0.0f, f32(DY[select(0u, c.x + k.x, ok)]), ok);
}

fn emit(g: u32, split: u32, m: u32, n: u32, v: f32) {
{{EMIT_SPLIT}}
  let pix = dp[2] * dp[3];
  let b = n / pix;
  let r = n % pix;
  let ih = dp[0] + (r / dp[3]) * pu(9u);
  let iw = dp[1] + (r % dp[3]) * pu(10u);
  out[((b * pu(1u) + g * pu(16u) + m) * pu(2u) + ih) * pu(3u) + iw] = S(v);
}

//@op wgrad
// A = dy as (COG, (n, oh, ow)), B = im2col(x) transposed: B[(n, oh, ow), (ci, kh, kw)], plus a column
// of ones when the bias gradient is fused in (word 38: CG*KH*KW; N is one more); split s of the
// reduction writes part[s, g*COG + co, column]
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> DY: array<S>;
@group(0) @binding(3) var<storage, read> X: array<S>;

fn a_row(g: u32, m: u32) -> vec3<u32> { return vec3<u32>(pu(31u) + (g * pu(17u) + m) * pu(33u), 0u, 0u); }
fn a_kinfo(k: u32) -> vec3<u32> {
  let ohw = pu(5u) * pu(6u);
  let r = k % ohw;
  return vec3<u32>((k / ohw) * pu(32u) + (r / pu(6u)) * pu(34u) + (r % pu(6u)) * pu(35u), 0u, 0u);
}
fn a_load(r: vec3<u32>, k: vec3<u32>, ok: bool) -> f32 { return select(0.0f, f32(DY[select(0u, r.x + k.x, ok)]), ok); }

// .w = 1: the column of ones (the bias gradient)
fn b_col(g: u32, n: u32) -> vec4<u32> {
  let khw = pu(7u) * pu(8u);
  let r = n % khw;
  let dh = (r / pu(8u)) * pu(13u) - pu(11u);
  let dw = (r % pu(8u)) * pu(14u) - pu(12u);
  return vec4<u32>(pu(25u) + (g * pu(16u) + n / khw) * pu(27u) + dh * pu(28u) + dw * pu(29u), dh, dw,
                   select(0u, 1u, n >= pu(38u)));
}
fn b_kinfo(k: u32) -> vec3<u32> {
  let ohw = pu(5u) * pu(6u);
  let r = k % ohw;
  let ih = (r / pu(6u)) * pu(9u);
  let iw = (r % pu(6u)) * pu(10u);
  return vec3<u32>((k / ohw) * pu(26u) + ih * pu(28u) + iw * pu(29u), ih, iw);
}
fn b_load(c: vec4<u32>, k: vec3<u32>, ok0: bool) -> f32 {
  let ok = ok0 & (c.y + k.y < pu(2u)) & (c.z + k.z < pu(3u)) & (c.w == 0u);
  return select(select(0.0f, f32(X[select(0u, c.x + k.x, ok)]), ok), 1.0f, ok0 & (c.w == 1u));
}

fn emit(g: u32, split: u32, m: u32, n: u32, v: f32) {
  let total = pu(4u) * pu(19u);
  out[split * total + (g * pu(17u) + m) * pu(19u) + n] = v;
}

//@op wgrad_sum
// the sum over splits s of part[s, co, column], one thread per (co, column): columns below word 38
// are dw[co, column], the last one (with BIAS) is db[co]
@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read> part: array<f32>;
{{BIAS_DECL}}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  let N = pu(19u);
  let total = pu(4u) * N;
  if (i >= total) { return; }
  var acc = 0.0f;
  for (var s = 0u; s < pu(23u); s++) { acc += part[s * total + i]; }
  let co = i / N;
  let n = i % N;
  if (n < pu(38u)) { out[co * pu(38u) + n] = S(acc); }
  {{BIAS_STORE}}
}

//@op split_sum
// forward and (one-phase) input gradient split along K: split s wrote part[s, channel, column] (the
// GEMM's m over all groups, n); one thread per output adds the splits (and the bias) and stores it
// in NCHW order: out[(n / P) * CH * P + channel * P + n % P], word 54 CH, word 55 P (pixels an image)
@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read> part: array<f32>;
{{BIAS_DECL}}
{{BN_EPI}}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  let N = pu(19u);
  let total = pu(54u) * N;
  if (i >= total) { return; }
  var acc = 0.0f;
  for (var s = 0u; s < pu(23u); s++) { acc += part[s * total + i]; }
  let ch = i / N;
  let n = i % N;
  let P = pu(55u);
  let o = (n / P) * pu(54u) * P + ch * P + n % P;
  out[o] = S({{EPI}}(ch, o, acc{{BIAS}}));
}

//@op tail
// a split sum riding on a later conv dispatch (device/trace_fusion_tail.py): the workgroups from word
// 58 on add the splits as wgrad_sum or split_sum does, in its order: word 59 the columns, 60 the
// splits, 61 the rows (wgrad_sum: CO; split_sum: the output's channels), 62 wgrad_sum: the weight's
// columns (the last one, with a bias, is db); split_sum: the pixels an image (stored in NCHW order)
@group(0) @binding({{T0}}) var<storage, read_write> t_out: array<S>;
@group(0) @binding({{T1}}) var<storage, read> t_part: array<f32>;
{{TAIL_BIAS_DECL}}

fn tail(t: u32, li: u32) {
  let i = t * {{THREADS}}u + li;
  let N = pu(59u);
  let total = pu(61u) * N;
  if (i >= total) { return; }
  var acc = 0.0f;
  for (var s = 0u; s < pu(60u); s++) { acc += t_part[s * total + i]; }
  let co = i / N;
  let n = i % N;
  let P = pu(62u);
  {{TAIL_STORE}}
}
