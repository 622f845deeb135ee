// Fused optimizer updates: one dispatch per parameter updates the parameter and its state in one
// pass over the elements, in the same order of float32 operations as the optimizers' tensor code
// (optim/sgd.py, optim/adam.py), so both give the same numbers. The uniform block is
// device/layouts.py's OPT; flags (maximize, weight decay, momentum, nesterov, amsgrad, decoupled
// weight decay) are compile-time: they are in the pipeline key.
{{UNIFORMS}}
const MAXIMIZE = {{MAXIMIZE}};
const WEIGHT_DECAY = {{WEIGHT_DECAY}};

@group(0) @binding(1) var<storage, read_write> p: array<f32>;
{{S0_DECL}}
{{S1_DECL}}
@group(0) @binding({{G_BINDING}}) var<storage, read> g: array<f32>;

fn index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 { return gid.y * nwg.x * 256u + gid.x; }

fn grad(i: u32) -> f32 {
  var d = g[u_g_offset() + i];
  if (MAXIMIZE) { d = -d; }
  return d;
}

//@mode sgd
// s0: the momentum buffer (bound only with momentum)
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= u_numel()) { return; }
  let pi = u_p_offset() + i;
  var d = grad(i);
  if (WEIGHT_DECAY) { d = d + u_weight_decay() * p[pi]; }
  {{SGD_MOMENTUM}}
  p[pi] = p[pi] + u_neg_lr() * d;
}

//@mode adam
// s0: exp_avg, s1: exp_avg_sq; with amsgrad, binding 4 is max_exp_avg_sq
const AMSGRAD = {{AMSGRAD}};
const DECOUPLED = {{DECOUPLED}};
{{S2_DECL}}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = index(gid, nwg);
  if (i >= u_numel()) { return; }
  let pi = u_p_offset() + i;
  var d = grad(i);
  var w = p[pi];
  if (WEIGHT_DECAY) {
    if (DECOUPLED) { w = w * u_decay_factor(); } else { d = d + u_weight_decay() * w; }
  }
  let mi = u_s0_offset() + i;
  let vi = u_s1_offset() + i;
  let m0 = s0[mi];
  // lerp(m, d, 1 - beta1) as PyTorch computes it (weight < 0.5: start + weight * (end - start),
  // else end - (end - start) * (1 - weight))
  let wt = u_one_minus_beta1();
  let m = select(d - (d - m0) * (1.0f - wt), m0 + wt * (d - m0), abs(wt) < 0.5f);
  let v = s1[vi] * u_beta2() + d * u_one_minus_beta2() * d;
  s0[mi] = m;
  s1[vi] = v;
  var vv = v;
  {{AMSGRAD_MAX}}
  let denom = sqrt(vv) / u_bc2_sqrt() + u_eps();
  p[pi] = w + (m * u_neg_step_size()) / denom;
}
