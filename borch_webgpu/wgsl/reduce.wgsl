// Reduction skeleton: out[o] = r_final(fold of r_step over j < K of x[o, j]) for M outputs.
// The input view is seen as (kept dims..., reduced dims...) through strides, so any set of
// dims reduces without a copy. The op supplies S (its running state), r_init, r_step,
// r_merge and r_final (a block of an ops_reduce.wgsl file).
// Modes (one //@mode section below is used): 0 one workgroup per output, 1 one thread per output (small K),
// 2 partial (G workgroups per output, each over a chunk of K, writing states),
// 3 merge (one workgroup per output folding G partial states).
//
// The uniform block is device/layouts.py's RED: u_rows() M, u_red_len() K, u_kept_rank(),
// u_red_rank(), u_in_offset(), u_out_offset(), u_chunk(), u_groups() G, u_param(j), u_kept_shape(d),
// u_kept_stride(d), u_red_shape(d), u_red_stride(d). INPUT is the binding of x (one array, or for a
// reduction that computes its input, device/trace_fusion_reduce.py, that computation's operands).
{{UNIFORMS}}
alias C = {{C}};
alias R = {{R}};

{{COMMON}}

{{OP}}

@group(0) @binding(1) var<storage, read_write> out: array<{{OUT_T}}>;
{{INPUT}}

fn base_of(o: u32) -> u32 {
  var rem = o;
  var idx = u_in_offset();
  var d = u_kept_rank();
  loop {
    if (d == 0u) { break; }
    d -= 1u;
    let size = u_kept_shape(d);
    idx += (rem % size) * u_kept_stride(d);
    rem = rem / size;
  }
  return idx;
}

fn red_off(j: u32) -> u32 {
  var rem = j;
  var idx = 0u;
  var d = u_red_rank();
  loop {
    if (d == 0u) { break; }
    d -= 1u;
    let size = u_red_shape(d);
    idx += (rem % size) * u_red_stride(d);
    rem = rem / size;
  }
  return idx;
}

{{LOAD_FN}}

// modes 0, 2 and 3 fold with RW threads an output (device/gpu_backend.py's reduce_width: 256 on GPUs,
// fewer on software adapters, whose barriers cost more than the lanes they keep busy)
const RW = {{RW}}u;
var<workgroup> sh: array<S, RW>;

fn tree(li: u32, acc: S) -> S {
  sh[li] = acc;
  workgroupBarrier();
  for (var s = RW / 2u; s > 0u; s >>= 1u) {
    if (li < s) { sh[li] = r_merge(sh[li], sh[li + s]); }
    workgroupBarrier();
  }
  return sh[0];
}

//@mode 0
@compute @workgroup_size(RW)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let o = wg.y * nwg.x + wg.x;
  if (o >= u_rows()) { return; }
  let base = base_of(o);
  var acc = r_init();
  for (var j = li; j < u_red_len(); j += RW) { acc = r_step(acc, load(base, j), j); }
  let r = tree(li, acc);
  if (li == 0u) { out[u_out_offset() + o] = {{OUT_CAST}}(r_final(r, u_red_len())); }
}

//@mode 1
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let o = (wg.y * nwg.x + wg.x) * 256u + li;
  if (o >= u_rows()) { return; }
  let base = base_of(o);
  var acc = r_init();
  for (var j = 0u; j < u_red_len(); j++) { acc = r_step(acc, load(base, j), j); }
  out[u_out_offset() + o] = {{OUT_CAST}}(r_final(acc, u_red_len()));
}

//@mode 2
@compute @workgroup_size(RW)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let flat = wg.y * nwg.x + wg.x;
  let o = flat / u_groups();
  if (o >= u_rows()) { return; }
  let lo = (flat % u_groups()) * u_chunk();
  let hi = min(u_red_len(), lo + u_chunk());
  let base = base_of(o);
  var acc = r_init();
  for (var j = lo + li; j < hi; j += RW) { acc = r_step(acc, load(base, j), j); }
  let r = tree(li, acc);
  if (li == 0u) { out[flat] = r; }
}

//@mode 3
@compute @workgroup_size(RW)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let o = wg.y * nwg.x + wg.x;
  if (o >= u_rows()) { return; }
  var acc = r_init();
  for (var g = li; g < u_groups(); g += RW) { acc = r_merge(acc, x[o * u_groups() + g]); }
  let r = tree(li, acc);
  if (li == 0u) { out[u_out_offset() + o] = {{OUT_CAST}}(r_final(r, u_red_len())); }
}
