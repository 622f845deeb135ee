// Sort skeleton: a bitonic sort of (key, index) pairs along one dim of a strided view. The key is a
// u32 whose unsigned order is PyTorch's order of the values (NaN above +inf, -0.0 equal to +0.0;
// inverted for descending), and ties are broken by the index, so every pair is distinct and the
// result is the stable sort, whatever the network's order of compare-exchanges.
// borch_webgpu/device/gpu_scan_sort.py fills the double-brace slots and picks one //@mode section.
//
// Uniform words (sort modes): 0 M rows, 1 n row length, 2 kept rank, 3 input offset, 4 input stride
// along the dim, 5 output stride along the dim, 6 seg (the padded length a network sorts: a power of
// two), 7 stage k, 8 step j, 9 descending, 10 kout (leading positions written out: topk's k),
// 11 row0 (first row of this call), 12..23 kept shape, 24..35 input kept strides,
// 36..47 output kept strides (values and indices share one contiguous layout), 48 steps fused (step).
// Modes: local (rows with seg <= 2048: several rows per workgroup, sorted and written in one
// dispatch); init, step, merge (longer rows: blocks of 2048 sorted in shared memory into tmp[],
// then for each stage k > 2048 global passes over the steps j >= 2048, two steps a pass, and one
// shared-memory merge for the steps below; the last merge writes the outputs). Padding past n sorts
// last (key and index ~0).
//
// Modes scatter and gather (backward) read words 0 M, 1 K (positions per row), 2 kept rank,
// 3 src offset, 4 index offset, 5 out offset, 6 src stride, 7 index stride, 8 out stride along the
// dim, 12..23 kept shape, 24..35 src, 36..47 index, 48..59 out kept strides:
// scatter out[r, idx[r, j]] = src[r, j]; gather out[r, j] = src[r, idx[r, j]].
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

alias T = {{T}};

{{COMMON}}

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

const L: u32 = 2048u;
// threads of the shared-memory modes (local, init, merge): 256 on GPUs, fewer on software adapters,
// where every barrier switches each 4-thread subgroup of the workgroup in and out
const WG: u32 = {{WG}}u;
const PAD: u32 = 0xffffffffu;

fn ckey(v: T) -> u32 {
  let k = key_{{T}}(v);
  return select(k, ~k, pu(9u) != 0u);
}

fn after(ka: u32, ia: u32, kb: u32, ib: u32) -> bool { return ka > kb || (ka == kb && ia > ib); }

var<workgroup> sk: array<u32, 2048>;
var<workgroup> si: array<u32, 2048>;

// Compare-exchange steps j = j0, j0/2, ..., 1 of stage k on the 2048 pairs in sk/si, whose first
// sits at position gbase of its row; blocks of seg are sorted ascending at the last stage.
fn local_steps(li: u32, gbase: u32, k: u32, j0: u32, seg: u32) {
  for (var j = j0; j > 0u; j >>= 1u) {
    for (var t = li; t < L / 2u; t += WG) {
      let i = ((t & ~(j - 1u)) << 1u) | (t & (j - 1u));
      let l = i | j;
      let asc = k >= seg || ((gbase + i) & k) == 0u;
      let ka = sk[i];
      let kb = sk[l];
      let ia = si[i];
      let ib = si[l];
      if (after(ka, ia, kb, ib) == asc) {
        sk[i] = kb;
        sk[l] = ka;
        si[i] = ib;
        si[l] = ia;
      }
    }
    workgroupBarrier();
  }
}

//@mode local
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let flat = wg.y * nwg.x + wg.x;
  let seg = pu(6u);
  let per = L / seg;
  if (flat * per >= pu(0u)) { return; }
  for (var i = li; i < L; i += WG) {
    let r = flat * per + i / seg;
    let p = i & (seg - 1u);
    var k = PAD;
    var ix = PAD;
    if (r < pu(0u) && p < pu(1u)) {
      k = ckey(x[row_base(pu(11u) + r, 24u, pu(3u)) + p * pu(4u)]);
      ix = p;
    }
    sk[i] = k;
    si[i] = ix;
  }
  workgroupBarrier();
  for (var k = 2u; k <= seg; k <<= 1u) { local_steps(li, 0u, k, k >> 1u, seg); }
  for (var i = li; i < L; i += WG) {
    let r = flat * per + i / seg;
    let p = i & (seg - 1u);
    if (r < pu(0u) && p < pu(10u)) {
      let src = si[i];
      let ob = row_base(pu(11u) + r, 36u, 0u) + p * pu(5u);
      vals[ob] = x[row_base(pu(11u) + r, 24u, pu(3u)) + src * pu(4u)];
      idxs[ob] = i32(src);
    }
  }
}

//@mode init
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let flat = wg.y * nwg.x + wg.x;
  let seg = pu(6u);
  let blocks = seg / L;
  let r = flat / blocks;
  if (r >= pu(0u)) { return; }
  let gbase = (flat % blocks) * L;
  let ib = row_base(pu(11u) + r, 24u, pu(3u));
  for (var i = li; i < L; i += WG) {
    let p = gbase + i;
    var k = PAD;
    var ix = PAD;
    if (p < pu(1u)) {
      k = ckey(x[ib + p * pu(4u)]);
      ix = p;
    }
    sk[i] = k;
    si[i] = ix;
  }
  workgroupBarrier();
  for (var k = 2u; k <= L; k <<= 1u) { local_steps(li, gbase, k, k >> 1u, seg); }
  for (var i = li; i < L; i += WG) {
    tmp[r * seg + gbase + i] = vec2<u32>(sk[i], si[i]);
  }
}

//@mode step
// Steps j, ..., j/2^(s-1) of stage k (s = word 48: 1 or 2) in one pass: each thread holds the 2^s
// pairs whose positions differ only in those bits, and runs their compare-exchanges in registers.
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let t = (wg.y * nwg.x + wg.x) * 256u + li;
  let seg = pu(6u);
  let k = pu(7u);
  let j = pu(8u);
  let s = pu(48u);
  let B = 1u << s;
  let per = seg >> s;
  let r = t / per;
  if (r >= pu(0u)) { return; }
  let q = t % per;
  let lo = j >> (s - 1u);                 // the lowest of the s bits
  let i = ((q & ~(lo - 1u)) << s) | (q & (lo - 1u));
  let asc = k >= seg || (i & k) == 0u;
  let base = r * seg + i;
  var v: array<vec2<u32>, 4>;
  for (var m = 0u; m < B; m++) { v[m] = tmp[base + m * lo]; }
  for (var b = s; b > 0u; b--) {
    let bit = 1u << (b - 1u);
    for (var m = 0u; m < B; m++) {
      if ((m & bit) == 0u) {
        let x = v[m];
        let y = v[m | bit];
        if (after(x.x, x.y, y.x, y.y) == asc) {
          v[m] = y;
          v[m | bit] = x;
        }
      }
    }
  }
  for (var m = 0u; m < B; m++) { tmp[base + m * lo] = v[m]; }
}

//@mode merge
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let flat = wg.y * nwg.x + wg.x;
  let seg = pu(6u);
  let blocks = seg / L;
  let r = flat / blocks;
  if (r >= pu(0u)) { return; }
  let gbase = (flat % blocks) * L;
  for (var i = li; i < L; i += WG) {
    let v = tmp[r * seg + gbase + i];
    sk[i] = v.x;
    si[i] = v.y;
  }
  workgroupBarrier();
  let k = pu(7u);
  local_steps(li, gbase, k, L >> 1u, seg);
  if (k < seg) {
    for (var i = li; i < L; i += WG) {
      tmp[r * seg + gbase + i] = vec2<u32>(sk[i], si[i]);
    }
    return;
  }
  let ib = row_base(pu(11u) + r, 24u, pu(3u));
  let ob = row_base(pu(11u) + r, 36u, 0u);
  for (var i = li; i < L; i += WG) {
    let p = gbase + i;
    if (p < pu(10u)) {
      let src = si[i];
      vals[ob + p * pu(5u)] = x[ib + src * pu(4u)];
      idxs[ob + p * pu(5u)] = i32(src);
    }
  }
}

//@mode scatter
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let t = (wg.y * nwg.x + wg.x) * 256u + li;
  let r = t / pu(1u);
  if (r >= pu(0u)) { return; }
  let j = t % pu(1u);
  let dst = u32(idx[row_base(r, 36u, pu(4u)) + j * pu(7u)]);
  out[row_base(r, 48u, pu(5u)) + dst * pu(8u)] = src[row_base(r, 24u, pu(3u)) + j * pu(6u)];
}

//@mode gather
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let t = (wg.y * nwg.x + wg.x) * 256u + li;
  let r = t / pu(1u);
  if (r >= pu(0u)) { return; }
  let j = t % pu(1u);
  let at = u32(idx[row_base(r, 36u, pu(4u)) + j * pu(7u)]);
  out[row_base(r, 48u, pu(5u)) + j * pu(8u)] = src[row_base(r, 24u, pu(3u)) + at * pu(6u)];
}

//@op sort
// Sort keys: u32 values whose unsigned order is PyTorch's ascending order of the values.
fn key_f32(v: f32) -> u32 {
  let b = bitcast<u32>(v);
  let m = b & 0x7fffffffu;
  if (m > 0x7f800000u) { return 0xffffffffu; }   // every NaN, above +inf
  if (m == 0u) { return 0x80000000u; }           // -0.0 ties with +0.0
  return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}
fn key_i32(v: i32) -> u32 { return bitcast<u32>(v) ^ 0x80000000u; }
fn key_u32(v: u32) -> u32 { return v; }
