// Reduction skeleton: out[o] = r_final(fold of r_step over j < K of x[o, j]) for M outputs.
// The input view is seen as (kept dims..., reduced dims...) through strides, so any set of
// dims reduces without a copy. The op supplies S (its running state), r_init, r_step,
// r_merge and r_final (a block of an ops_reduce.wgsl file).
// Modes (one //@mode section below is used): 0 one workgroup per output, 1 one thread per output (small K),
// 2 partial (G workgroups per output, each over a chunk of K, writing states),
// 3 merge (one workgroup per output folding G partial states).
//
// Uniform words: 0 M, 1 K, 2 kept rank, 3 reduced rank, 4 input offset, 5 output offset,
// 6 chunk, 7 G, 8..11 op scalars, 12..23 kept shape, 24..35 kept strides,
// 36..47 reduced shape, 48..59 reduced strides.
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }
fn pf(i: u32) -> f32 { return bitcast<f32>(pu(i)); }

alias C = {{C}};
alias R = {{R}};

{{COMMON}}

{{OP}}

@group(0) @binding(1) var<storage, read_write> out: array<{{OUT_T}}>;
@group(0) @binding(2) var<storage, read> x: array<{{IN_T}}>;

fn base_of(o: u32) -> u32 {
  var rem = o;
  var idx = pu(4u);
  var d = pu(2u);
  loop {
    if (d == 0u) { break; }
    d -= 1u;
    let size = pu(12u + d);
    idx += (rem % size) * pu(24u + d);
    rem = rem / size;
  }
  return idx;
}

fn red_off(j: u32) -> u32 {
  var rem = j;
  var idx = 0u;
  var d = pu(3u);
  loop {
    if (d == 0u) { break; }
    d -= 1u;
    let size = pu(36u + d);
    idx += (rem % size) * pu(48u + d);
    rem = rem / size;
  }
  return idx;
}

{{LOAD_FN}}

var<workgroup> sh: array<S, 256>;

fn tree(li: u32, acc: S) -> S {
  sh[li] = acc;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (li < s) { sh[li] = r_merge(sh[li], sh[li + s]); }
    workgroupBarrier();
  }
  return sh[0];
}

//@mode 0
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let o = wg.y * nwg.x + wg.x;
  if (o >= pu(0u)) { return; }
  let base = base_of(o);
  var acc = r_init();
  for (var j = li; j < pu(1u); j += 256u) { acc = r_step(acc, load(base, j), j); }
  let r = tree(li, acc);
  if (li == 0u) { out[pu(5u) + o] = {{OUT_CAST}}(r_final(r, pu(1u))); }
}

//@mode 1
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let o = (wg.y * nwg.x + wg.x) * 256u + li;
  if (o >= pu(0u)) { return; }
  let base = base_of(o);
  var acc = r_init();
  for (var j = 0u; j < pu(1u); j++) { acc = r_step(acc, load(base, j), j); }
  out[pu(5u) + o] = {{OUT_CAST}}(r_final(acc, pu(1u)));
}

//@mode 2
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let flat = wg.y * nwg.x + wg.x;
  let o = flat / pu(7u);
  if (o >= pu(0u)) { return; }
  let lo = (flat % pu(7u)) * pu(6u);
  let hi = min(pu(1u), lo + pu(6u));
  let base = base_of(o);
  var acc = r_init();
  for (var j = lo + li; j < hi; j += 256u) { acc = r_step(acc, load(base, j), j); }
  let r = tree(li, acc);
  if (li == 0u) { out[flat] = r; }
}

//@mode 3
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let o = wg.y * nwg.x + wg.x;
  if (o >= pu(0u)) { return; }
  var acc = r_init();
  for (var g = li; g < pu(7u); g += 256u) { acc = r_merge(acc, x[o * pu(7u) + g]); }
  let r = tree(li, acc);
  if (li == 0u) { out[pu(5u) + o] = {{OUT_CAST}}(r_final(r, pu(1u))); }
}
