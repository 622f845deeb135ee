// Training-mode batch normalisation of x (NB, C, S) (S: the spatial size, contiguous channels of
// NB x S elements each), in four kernels, one dispatch each:
//   stats       one workgroup per channel: mean and 1/sqrt(var + eps) (two passes over the channel,
//               each thread keeping four loads in flight,
//               the biased variance), written to st[c] and st[C + c]; running stats updated in place
//               (the variance unbiased with L / (L - 1), L = NB * S), as PyTorch does
//   apply       y = (x - mean) * invstd * w + b (optionally then relu), one thread per element
//   eval        the same with the running statistics (evaluation mode; the apply block)
//   bwd_reduce  one workgroup per channel: sum(dy) and sum(dy * xhat) into sdy[c] and sdx[c] (they are
//               also the bias and weight gradients)
//   bwd_apply   dx = w * invstd * (dy - sum(dy) / L - xhat * sum(dy * xhat) / L)
// In a captured step (device/trace_fusion.py) stats and bwd_reduce can also read x / dy as the partial
// sums of a conv split along K (SPLIT: conv.wgsl's split_sum, done as they go) and write them out,
// and then do the next kernel's work (APPLY: apply, bwd_apply) over the channel they hold.
// The uniform block is device/layouts.py's BN: u_channels(), u_spatial(), u_batch(), u_numel(),
// u_x_offset(), u_dy_offset(), u_w_offset(), u_b_offset(), u_rm_offset(), u_rv_offset(), u_eps(),
// u_momentum(), u_unbias().
{{UNIFORMS}}
alias S = {{S}};

fn elem(c: u32, j: u32) -> u32 {  // index of the j-th element of channel c (j < NB * S)
  let s = u_spatial();
  return (j / s) * u_channels() * s + c * s + j % s;
}
fn chan(i: u32) -> u32 { return (i / u_spatial()) % u_channels(); }
// relu as the relu op computes it (wgsl/ops_unary.wgsl): below zero by the sign bit, so -0.0 and NaN stay
fn relu_f(v: f32) -> f32 {
  let b = bitcast<u32>(v);
  return select(v, 0.0f, b > 0x80000000u && (b & 0x7fffffffu) <= 0x7f800000u);
}

// relu's gradient (wgsl/ops_binary.wgsl's threshold_backward): 0 where the relu's output y <= 0, else
// the gradient (a NaN y passes it); the backward kernels' relu variant applies it to dy as they read it
fn relu_grad(g: f32, y: f32) -> f32 {
  let nan = (bitcast<u32>(y) & 0x7fffffffu) > 0x7f800000u;
  return select(g, 0.0f, !nan && y <= 0.0f);
}

// the per-channel reductions (stats, bwd_reduce) run RW threads a channel: 256 on GPUs; on software
// adapters fewer, as their barriers cost far more than the lanes they would keep busy
const RW = {{RW}}u;
var<workgroup> sh: array<vec2<f32>, RW>;

fn tree(li: u32, v: vec2<f32>) -> vec2<f32> {
  workgroupBarrier();
  sh[li] = v;
  workgroupBarrier();
  for (var s = RW / 2u; s > 0u; s >>= 1u) {
    if (li < s) { sh[li] = sh[li] + sh[li + s]; }
    workgroupBarrier();
  }
  return sh[0];
}

//@mode stats
@group(0) @binding(1) var<storage, read_write> st: array<f32>;
{{X_DECL}}
{{RUNNING_DECL}}
{{COUNT_DECL}}

fn x_first(c: u32, j: u32) -> f32 { return {{X_FIRST}}; }
fn sq_dev(c: u32, j: u32, mean: f32) -> f32 {
  let d = f32(x[u_x_offset() + elem(c, j)]) - mean;
  return d * d;
}

@compute @workgroup_size(RW)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let c = wg.x;
  let L = u_batch() * u_spatial();
  let x0 = u_x_offset();
  // four loads in flight a thread (UNROLL): one workgroup a channel is latency-bound otherwise
  var a = vec4<f32>(0.0f);
  var j = li;
  for (; j + 3u * RW < L; j += 4u * RW) {
    a += vec4<f32>(x_first(c, j), x_first(c, j + RW), x_first(c, j + 2u * RW), x_first(c, j + 3u * RW));
  }
  for (; j < L; j += RW) { a.x += x_first(c, j); }
  let mean = tree(li, vec2<f32>((a.x + a.y) + (a.z + a.w), 0.0f)).x / f32(L);
  a = vec4<f32>(0.0f);
  j = li;
  for (; j + 3u * RW < L; j += 4u * RW) {
    a += vec4<f32>(sq_dev(c, j, mean), sq_dev(c, j + RW, mean), sq_dev(c, j + 2u * RW, mean),
                   sq_dev(c, j + 3u * RW, mean));
  }
  for (; j < L; j += RW) { a.x += sq_dev(c, j, mean); }
  let vr = tree(li, vec2<f32>((a.x + a.y) + (a.z + a.w), 0.0f)).x / f32(L);
  if (li == 0u) {
    st[c] = mean;
    st[u_channels() + c] = 1.0f / sqrt(vr + u_eps());
    {{RUNNING_UPDATE}}
    {{COUNT}}
  }
  {{APPLY}}
}

//@mode apply
// training (st: the statistics kernel's mean and invstd) or evaluation (rm, rv: the running ones):
// NORM_DECL binds them from binding 3 on and NORM is v = (x - mean) * invstd
@group(0) @binding(1) var<storage, read_write> y: array<S>;
@group(0) @binding(2) var<storage, read> x: array<S>;
{{NORM_DECL}}
{{AFFINE_DECL}}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.y * nwg.x * 256u + gid.x;
  if (i >= u_numel()) { return; }
  let c = chan(i);
  let xi = f32(x[u_x_offset() + i]);
  {{NORM}}
  {{AFFINE}}
  {{RELU}}
  {{RES}}
  y[i] = S(v);
}

//@mode bwd_reduce
@group(0) @binding(1) var<storage, read_write> sdy: array<f32>;
@group(0) @binding(2) var<storage, read_write> sdx: array<f32>;
{{DY_DECL}}
@group(0) @binding(4) var<storage, read> x: array<S>;
@group(0) @binding(5) var<storage, read> st: array<f32>;
{{Y_DECL}}
{{SPLIT_DECL}}

fn grad_terms(c: u32, j: u32, mean: f32, inv: f32) -> vec2<f32> {
  let e = elem(c, j);
  let g = {{GRAD_E}};
  return vec2<f32>(g, g * (f32(x[u_x_offset() + e]) - mean) * inv);
}

@compute @workgroup_size(RW)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let c = wg.x;
  let L = u_batch() * u_spatial();
  let mean = st[c];
  let inv = st[u_channels() + c];
  // four loads in flight a thread, as in stats
  var a0 = vec2<f32>(0.0f);
  var a1 = vec2<f32>(0.0f);
  var j = li;
  for (; j + 3u * RW < L; j += 4u * RW) {
    a0 += grad_terms(c, j, mean, inv) + grad_terms(c, j + RW, mean, inv);
    a1 += grad_terms(c, j + 2u * RW, mean, inv) + grad_terms(c, j + 3u * RW, mean, inv);
  }
  for (; j < L; j += RW) { a0 += grad_terms(c, j, mean, inv); }
  let r = tree(li, a0 + a1);
  if (li == 0u) {
    sdy[c] = r.x;
    sdx[c] = r.y;
  }
  {{APPLY}}
}

//@mode bwd_apply
@group(0) @binding(1) var<storage, read_write> dx: array<S>;
@group(0) @binding(2) var<storage, read> dy: array<S>;
@group(0) @binding(3) var<storage, read> x: array<S>;
@group(0) @binding(4) var<storage, read> st: array<f32>;
@group(0) @binding(5) var<storage, read> sdy: array<f32>;
@group(0) @binding(6) var<storage, read> sdx: array<f32>;
{{W_DECL}}
{{Y_DECL}}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.y * nwg.x * 256u + gid.x;
  if (i >= u_numel()) { return; }
  let c = chan(i);
  let C = u_channels();
  let L = f32(u_batch() * u_spatial());
  let inv = st[C + c];
  let xhat = (f32(x[u_x_offset() + i]) - st[c]) * inv;
  let g = {{GRAD_I}};
  let scale = {{W}} * inv;
  dx[i] = S(scale * (g - sdy[c] / L - xhat * (sdx[c] / L)));
}
