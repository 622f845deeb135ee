// Matrix products: out[b, m, n] = alpha * sum_k A[b, m, k] * B[b, k, n] (+ beta * C[b, m, n]).
// A, B and the bias C are any strided views (transposed, sliced, broadcast batch dims with stride 0):
// nothing is copied first. The output is new contiguous (batch, M, N) memory.
// borch_webgpu/device/gpu_matmul.py fills the double-brace slots and picks a block:
//   gemm    tiled product, one workgroup per BM x BN output tile (optionally one K chunk of it: split-K)
//   gemv    M == 1 (a vector times a matrix, also N == 1 with the operands' roles swapped)
//   splitk  sums split-K partial products and applies the epilogue
// Accumulation is in T: f32 for float tensors (half precision ones too), i32 for integer ones, which
// wrap at 32 bits (int64 is held as int32 on the device).
//
// Uniform words: 0 M, 1 N, 2 K, 3 batch count, 4 tiles along M, 5 tiles along N (gemv: blocks of N),
// 6 A offset, 7 B offset, 8 C offset, 9 K chunk per split, 10 A stride m, 11 A stride k,
// 12 B stride k, 13 B stride n, 14 C stride m, 15 C stride n, 16 alpha bits, 17 beta bits,
// 18 batch rank (<= 4), 19 splits, 20..23 batch shape, 24..27 / 28..31 / 32..35 batch strides of A / B / C,
// 36 gemv outputs per workgroup, 37 gemv thread layout (0: outputs fastest, 1: k fastest).
// Offsets and strides are element counts; u32 arithmetic wraps, so negative strides work too.
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

alias S = {{S}};
alias T = {{T}};
alias V = vec4<T>;

fn bits_t(i: u32) -> T { return bitcast<T>(pu(i)); }

// Element offsets of batch entry bt in A, B and C.
fn batch_offsets(bt: u32) -> vec3<u32> {
  var rem = bt;
  var o = vec3<u32>(pu(6u), pu(7u), pu(8u));
  var d = pu(18u);
  loop {
    if (d == 0u) { break; }
    d -= 1u;
    let size = pu(20u + d);
    let i = rem % size;
    rem = rem / size;
    o += i * vec3<u32>(pu(24u + d), pu(28u + d), pu(32u + d));
  }
  return o;
}

// finish(acc, row, col, c_base): alpha * acc, plus beta * C[row, col] when there is a bias.
{{BIAS}}

//@op gemm_lib
// Shared by gemm and gemm_sw (gpu_matmul.source puts it before either): a tile of BM x BN outputs
// owned by TD x TD threads, each holding RM x RN blocks of 4 x 4 outputs: rows i*4*TD + ty*4 + (0..3),
// columns j*4*TD + tx*4 + (0..3) of the tile. Per K step of BK the tile operands go through shared
// memory.
const RM = {{RM}}u;
const RN = {{RN}}u;
const TD = {{TD}}u;
const BM = 4u * TD * RM;
const BN = 4u * TD * RN;
const BK = {{BK}}u;
// Row pitch of the shared tiles in vec4s, padded by one: when the load runs along k (k-fast
// mapping), the 8 lanes that store one row group then hit 8 different bank quads.
const PA = BM / 4u + 1u;
const PB = BN / 4u + 1u;
const A_KFAST = {{A_KFAST}};
const B_KFAST = {{B_KFAST}};
const SPLIT = {{SPLIT}};

@group(0) @binding(1) var<storage, read_write> out: array<{{OUT}}>;
@group(0) @binding(2) var<storage, read> A: array<S>;
@group(0) @binding(3) var<storage, read> B: array<S>;

var<workgroup> As: array<V, BK * PA>;   // As[k * PA + r / 4][r % 4] = A[m0 + r, k0 + k]
var<workgroup> Bs: array<V, BK * PB>;   // Bs[k * PB + c / 4][c % 4] = B[k0 + k, n0 + c]

// rows r..r+3 (of R valid) of column k (valid below kend) of A, from element base; zeros outside
fn load_a(base: u32, r: u32, k: u32, R: u32, kend: u32) -> V {
  var v = V(T(0));
  if (k < kend) {
    let sr = pu(10u);
    let p = base + r * sr + k * pu(11u);
    if (r < R) { v.x = T(A[p]); }
    if (r + 1u < R) { v.y = T(A[p + sr]); }
    if (r + 2u < R) { v.z = T(A[p + 2u * sr]); }
    if (r + 3u < R) { v.w = T(A[p + 3u * sr]); }
  }
  return v;
}

// columns c..c+3 (of R valid) of row k of B
fn load_b(base: u32, c: u32, k: u32, R: u32, kend: u32) -> V {
  var v = V(T(0));
  if (k < kend) {
    let sc = pu(13u);
    let p = base + c * sc + k * pu(12u);
    if (c < R) { v.x = T(B[p]); }
    if (c + 1u < R) { v.y = T(B[p + sc]); }
    if (c + 2u < R) { v.z = T(B[p + 2u * sc]); }
    if (c + 3u < R) { v.w = T(B[p + 3u * sc]); }
  }
  return v;
}

// Write 4 outputs of one row (those below N); split-K partials are raw sums at their split's slab.
fn emit(o: u32, row: u32, col: u32, v: V, c_base: u32, N: u32) {
  for (var c = 0u; c < 4u; c++) {
    if (col + c < N) {
      if (SPLIT) {
        out[o + col + c] = {{OUT}}(v[c]);
      } else {
        out[o + col + c] = {{OUT}}(finish(v[c], row, col + c, c_base));
      }
    }
  }
}

// The output tile of workgroup number flat (none past the grid): its first row and column, where its
// operands start, its K range (one split's), where its outputs go. Grouped order: 8 tile rows at a time
// sweep the tile columns, so workgroups that run together share A and B tiles in L2.
struct Tile {
  valid: bool, m0: u32, n0: u32, a_base: u32, b_base: u32, c_base: u32,
  k_begin: u32, k_end: u32, rows: u32, cols: u32, o: u32,
}

fn tile_at(flat: u32) -> Tile {
  var t: Tile;
  let M = pu(0u);
  let N = pu(1u);
  let tiles_n = pu(5u);
  let per_batch = pu(4u) * tiles_n;
  let per_split = per_batch * pu(3u);
  t.valid = flat < per_split * pu(19u);
  if (!t.valid) { return t; }
  let split = flat / per_split;
  let bt = (flat % per_split) / per_batch;
  let i = flat % per_batch;
  let in_group = 8u * tiles_n;
  let first_m = (i / in_group) * 8u;
  let group_m = min(pu(4u) - first_m, 8u);
  t.m0 = (first_m + (i % in_group) % group_m) * BM;
  t.n0 = ((i % in_group) / group_m) * BN;
  let offs = batch_offsets(bt);
  t.a_base = offs.x + t.m0 * pu(10u);
  t.b_base = offs.y + t.n0 * pu(13u);
  t.c_base = offs.z;
  t.k_begin = split * pu(9u);
  t.k_end = min(pu(2u), t.k_begin + pu(9u));
  t.rows = M - t.m0;
  t.cols = N - t.n0;
  t.o = bt * M * N;
  if (SPLIT) { t.o += split * pu(3u) * M * N; }
  return t;
}

//@op gemm
// GPUs: TD = 16, 256 threads, BK = 8, so a warp's shared-memory reads are broadcasts (A) or 16
// consecutive vec4s (B). Each thread (half of them for a 64-wide operand) loads one 4-row strip of one
// k column of A and of B into registers one step ahead, so the global loads overlap the FMAs of the
// step before.
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let t = tile_at(wg.y * nwg.x + wg.x);
  if (!t.valid) { return; }

  // this thread's 4-row strip of the A tile (ag: strip, ak: k) and of the B tile
  var ag: u32;
  var ak: u32;
  var bg: u32;
  var bk: u32;
  if (A_KFAST) { ak = li % BK; ag = li / BK; } else { ag = li % (BM / 4u); ak = li / (BM / 4u); }
  if (B_KFAST) { bk = li % BK; bg = li / BK; } else { bg = li % (BN / 4u); bk = li / (BN / 4u); }
  let a_on = ag < BM / 4u && ak < BK;
  let b_on = bg < BN / 4u && bk < BK;
  var ra = V(T(0));
  var rb = V(T(0));
  if (a_on) { ra = load_a(t.a_base, ag * 4u, t.k_begin + ak, t.rows, t.k_end); }
  if (b_on) { rb = load_b(t.b_base, bg * 4u, t.k_begin + bk, t.cols, t.k_end); }

  let tx = lid.x;
  let ty = lid.y;
{{ACC_DECL}}
  for (var k0 = t.k_begin; k0 < t.k_end; k0 += BK) {
    workgroupBarrier();
    if (a_on) { As[ak * PA + ag] = ra; }
    if (b_on) { Bs[bk * PB + bg] = rb; }
    workgroupBarrier();
    let kn = k0 + BK;
    if (kn < t.k_end) {
      if (a_on) { ra = load_a(t.a_base, ag * 4u, kn + ak, t.rows, t.k_end); }
      if (b_on) { rb = load_b(t.b_base, bg * 4u, kn + bk, t.cols, t.k_end); }
    }
    for (var kk = 0u; kk < BK; kk++) {
{{FMA}}
    }
  }

{{STORE}}
}

//@op gemm_sw
// Software adapters (SwiftShader: a CPU): TD = 4, 16 threads, BK = 16. Each barrier there switches
// every 4-thread subgroup of the workgroup in and out, so few threads, many outputs each (8 x 8) and
// long K steps between barriers; each thread loads its share of the tiles straight into shared memory
// (no prefetch into registers, which keeps the compiled code small).
@compute @workgroup_size({{TD}}, {{TD}})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let t = tile_at(wg.y * nwg.x + wg.x);
  if (!t.valid) { return; }
  let tx = lid.x;
  let ty = lid.y;
{{ACC_DECL}}
  for (var k0 = t.k_begin; k0 < t.k_end; k0 += BK) {
    workgroupBarrier();
    for (var s = li; s < BM / 4u * BK; s += TD * TD) {
      var g: u32;
      var k: u32;
      if (A_KFAST) { k = s % BK; g = s / BK; } else { g = s % (BM / 4u); k = s / (BM / 4u); }
      As[k * PA + g] = load_a(t.a_base, g * 4u, k0 + k, t.rows, t.k_end);
    }
    for (var s = li; s < BN / 4u * BK; s += TD * TD) {
      var g: u32;
      var k: u32;
      if (B_KFAST) { k = s % BK; g = s / BK; } else { g = s % (BN / 4u); k = s / (BN / 4u); }
      Bs[k * PB + g] = load_b(t.b_base, g * 4u, k0 + k, t.cols, t.k_end);
    }
    workgroupBarrier();
    for (var kk = 0u; kk < BK; kk++) {
{{FMA}}
    }
  }

{{STORE}}
}

//@op gemv
// M == 1: out[b, n] = finish(sum_k A[b, k] * B[b, k, n]). 256 threads = TN outputs x TK lanes along k;
// the layout word puts consecutive threads along whichever of n and k is contiguous in B. Each lane
// keeps four loads in flight. With few outputs, K is split across workgroups (partials as in gemm).
const SPLIT = {{SPLIT}};

@group(0) @binding(1) var<storage, read_write> out: array<{{OUT}}>;
@group(0) @binding(2) var<storage, read> A: array<S>;
@group(0) @binding(3) var<storage, read> B: array<S>;

var<workgroup> red: array<T, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let N = pu(1u);
  let blocks = pu(5u);
  let TN = pu(36u);
  let TK = 256u / TN;
  let per_split = blocks * pu(3u);
  let flat = wg.y * nwg.x + wg.x;
  if (flat >= per_split * pu(19u)) { return; }
  let split = flat / per_split;
  let bt = (flat % per_split) / blocks;
  var tn: u32;
  var tk: u32;
  if (pu(37u) == 0u) { tn = li % TN; tk = li / TN; } else { tk = li % TK; tn = li / TK; }
  let n = (flat % blocks) * TN + tn;
  let offs = batch_offsets(bt);
  var acc0 = T(0);
  var acc1 = T(0);
  var acc2 = T(0);
  var acc3 = T(0);
  if (n < N) {
    let k_end = min(pu(2u), split * pu(9u) + pu(9u));
    var k = split * pu(9u) + tk;
    let sa = pu(11u);
    let sb = pu(12u);
    var pa = offs.x + k * sa;
    var pb = offs.y + n * pu(13u) + k * sb;
    let da = TK * sa;
    let db = TK * sb;
    loop {
      if (k + 3u * TK >= k_end) { break; }
      acc0 += T(A[pa]) * T(B[pb]);
      acc1 += T(A[pa + da]) * T(B[pb + db]);
      acc2 += T(A[pa + 2u * da]) * T(B[pb + 2u * db]);
      acc3 += T(A[pa + 3u * da]) * T(B[pb + 3u * db]);
      k += 4u * TK;
      pa += 4u * da;
      pb += 4u * db;
    }
    loop {
      if (k >= k_end) { break; }
      acc0 += T(A[pa]) * T(B[pb]);
      k += TK;
      pa += da;
      pb += db;
    }
  }
  red[tk * TN + tn] = (acc0 + acc1) + (acc2 + acc3);
  workgroupBarrier();
  for (var s = TK / 2u; s > 0u; s >>= 1u) {
    if (tk < s) { red[tk * TN + tn] += red[(tk + s) * TN + tn]; }
    workgroupBarrier();
  }
  if (tk == 0u && n < N) {
    if (SPLIT) {
      out[(split * pu(3u) + bt) * N + n] = {{OUT}}(red[tn]);
    } else {
      out[bt * N + n] = {{OUT}}(finish(red[tn], 0u, n, offs.z));
    }
  }
}

//@op splitk
// out[i] = finish(sum over splits s of part[s, i]), one thread per output element.
@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read> part: array<T>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  let N = pu(1u);
  let mn = pu(0u) * N;
  let total = mn * pu(3u);
  if (i >= total) { return; }
  var acc = T(0);
  for (var s = 0u; s < pu(19u); s++) { acc += part[s * total + i]; }
  let rem = i % mn;
  out[i] = S(finish(acc, rem / N, rem % N, batch_offsets(i / mn).z));
}
