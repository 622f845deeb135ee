// Cross-entropy of float32 logits x (N, C) and class-index targets t (N,) in a few kernels, one
// dispatch each, instead of the dozen or more of log_softmax + nll_loss each way:
//   rows    one workgroup per row: m = max, s = sum(exp(x - m)); the row's loss
//           -((x[t] - m) - log(s)) (log_softmax's order of operations), or 0 for an ignored
//           target, into aux[n], and m + log(s) (the log-sum-exp) into aux[N + n]; a target
//           outside [0, C) that is not ignore_index is recorded in the error buffer (PyTorch's
//           "Target 5 is out of bounds.", device/gpu_errors.py) and counts as ignored
//   total   one workgroup: the sum of the row losses and the number of targets not ignored
//           (kept in aux[2N] for the backward); out[0] = sum / count ('mean', NaN when every
//           target is ignored, as PyTorch) or the sum ('sum')
//   one     rows and total in one dispatch of one workgroup, for the small (N, C) of a classifier's
//           batch (device/gpu_loss.py's ONE_*): four rows at a time, each row reduced by 64
//           threads in the rows kernel's order, then the total in the total kernel's order, so
//           the values are the two kernels' bit for bit
//   bwd     one thread per element: dx = g * (exp(x - lse) - [c == t]) (/ count for 'mean'), 0 in
//           the rows of ignored targets; g is the output's gradient (one value, or one a row for
//           'none')
// The uniform block is device/layouts.py's CE.
{{UNIFORMS}}
alias C = f32;
{{COMMON}}

fn exp_c(a: f32) -> f32 {   // exp with PyTorch's values at the ends of its range (as wgsl/ops_unary.wgsl's)
  if (is_nan(a)) { return a; }
  if (a > 88.72284f) { return f32_inf(); }
  if (a < -103.97208f) { return 0.0f; }
  return exp(a);
}
fn ignored(t: i32) -> bool { return t == bitcast<i32>(u_ignore_index()); }
fn in_range(t: i32) -> bool { return t >= 0 && u32(t) < u_classes(); }

//@mode rows
@group(0) @binding(1) var<storage, read_write> aux: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> t: array<i32>;
@group(0) @binding(4) var<storage, read_write> err: array<atomic<u32>>;

var<workgroup> sh: array<f32, 64>;

fn tree_max(li: u32, v: f32) -> f32 {
  workgroupBarrier();
  sh[li] = v;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (li < s) {
      let o = sh[li + s];
      sh[li] = select(max(sh[li], o), o, is_nan(o));   // NaN wins, as in amax
    }
    workgroupBarrier();
  }
  return sh[0];
}
fn tree_sum(li: u32, v: f32) -> f32 {
  workgroupBarrier();
  sh[li] = v;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (li < s) { sh[li] = sh[li] + sh[li + s]; }
    workgroupBarrier();
  }
  return sh[0];
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let n = wg.y * nwg.x + wg.x;
  let N = u_rows();
  let K = u_classes();
  let valid_row = n < N;   // every thread takes part in the barriers
  let row = u_x_offset() + select(0u, n, valid_row) * K;
  var m = -f32_inf();
  for (var c = li; c < K && valid_row; c += 64u) {
    let v = x[row + c];
    m = select(max(m, v), v, is_nan(v));
  }
  m = tree_max(li, m);
  var s = 0.0f;
  for (var c = li; c < K && valid_row; c += 64u) { s += exp_c(x[row + c] - m); }
  s = tree_sum(li, s);
  if (li != 0u || !valid_row) { return; }
  let tn = t[u_t_offset() + n];
  var loss = 0.0f;
  if (!ignored(tn)) {
    if (in_range(tn)) {
      loss = -((x[row + u32(tn)] - m) - log_f(s));
    } else {
      let first = atomicCompareExchangeWeak(&err[0], 0u, u_err_code());
      if (first.exchanged) {
        atomicStore(&err[1], bitcast<u32>(tn));
        atomicStore(&err[2], K);
      }
    }
  }
  aux[n] = loss;
  aux[N + n] = m + log_f(s);
}

//@mode total
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> aux: array<f32>;
@group(0) @binding(3) var<storage, read> t: array<i32>;

var<workgroup> sh: array<vec2<f32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) li: u32) {
  let N = u_rows();
  var acc = vec2<f32>(0.0f, 0.0f);
  for (var n = li; n < N; n += 256u) {
    let tn = t[u_t_offset() + n];
    acc += vec2<f32>(aux[n], select(0.0f, 1.0f, !ignored(tn) && in_range(tn)));
  }
  sh[li] = acc;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (li < s) { sh[li] = sh[li] + sh[li + s]; }
    workgroupBarrier();
  }
  if (li == 0u) {
    let tot = sh[0];
    aux[2u * N] = tot.y;
    out[u_out_offset()] = select(tot.x, div_f(tot.x, tot.y), u_mean() == 1u);
  }
}

//@mode one
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> aux: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read> t: array<i32>;
@group(0) @binding(5) var<storage, read_write> err: array<atomic<u32>>;

var<workgroup> sh: array<f32, 256>;
var<workgroup> sh2: array<vec2<f32>, 256>;

// the rows kernel's 64-thread trees, four side by side (lane l of row group g at sh[64g + l])
fn tree_max(g: u32, l: u32, v: f32) -> f32 {
  workgroupBarrier();
  sh[64u * g + l] = v;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (l < s) {
      let o = sh[64u * g + l + s];
      sh[64u * g + l] = select(max(sh[64u * g + l], o), o, is_nan(o));
    }
    workgroupBarrier();
  }
  return sh[64u * g];
}
fn tree_sum(g: u32, l: u32, v: f32) -> f32 {
  workgroupBarrier();
  sh[64u * g + l] = v;
  workgroupBarrier();
  for (var s = 32u; s > 0u; s >>= 1u) {
    if (l < s) { sh[64u * g + l] = sh[64u * g + l] + sh[64u * g + l + s]; }
    workgroupBarrier();
  }
  return sh[64u * g];
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) li: u32) {
  let N = u_rows();
  let K = u_classes();
  let g = li / 64u;
  let l = li % 64u;
  for (var base = 0u; base < N; base += 4u) {
    let n = base + g;
    let valid_row = n < N;
    let row = u_x_offset() + select(0u, n, valid_row) * K;
    var m = -f32_inf();
    for (var c = l; c < K && valid_row; c += 64u) {
      let v = x[row + c];
      m = select(max(m, v), v, is_nan(v));
    }
    m = tree_max(g, l, m);
    var s = 0.0f;
    for (var c = l; c < K && valid_row; c += 64u) { s += exp_c(x[row + c] - m); }
    s = tree_sum(g, l, s);
    if (l == 0u && valid_row) {
      let tn = t[u_t_offset() + n];
      var loss = 0.0f;
      if (!ignored(tn)) {
        if (in_range(tn)) {
          loss = -((x[row + u32(tn)] - m) - log_f(s));
        } else {
          let first = atomicCompareExchangeWeak(&err[0], 0u, u_err_code());
          if (first.exchanged) {
            atomicStore(&err[1], bitcast<u32>(tn));
            atomicStore(&err[2], K);
          }
        }
      }
      aux[n] = loss;
      aux[N + n] = m + log_f(s);
    }
  }
  storageBarrier();
  workgroupBarrier();
  var acc = vec2<f32>(0.0f, 0.0f);
  for (var n = li; n < N; n += 256u) {
    let tn = t[u_t_offset() + n];
    acc += vec2<f32>(aux[n], select(0.0f, 1.0f, !ignored(tn) && in_range(tn)));
  }
  sh2[li] = acc;
  workgroupBarrier();
  for (var s = 128u; s > 0u; s >>= 1u) {
    if (li < s) { sh2[li] = sh2[li] + sh2[li + s]; }
    workgroupBarrier();
  }
  if (li == 0u) {
    let tot = sh2[0];
    aux[2u * N] = tot.y;
    out[u_out_offset()] = select(tot.x, div_f(tot.x, tot.y), u_mean() == 1u);
  }
}

//@mode bwd
@group(0) @binding(1) var<storage, read_write> dx: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read> t: array<i32>;
@group(0) @binding(4) var<storage, read> aux: array<f32>;
@group(0) @binding(5) var<storage, read> gy: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  let N = u_rows();
  let K = u_classes();
  if (i >= N * K) { return; }
  let n = i / K;
  let c = i % K;
  let tn = t[u_t_offset() + n];
  if (ignored(tn) || !in_range(tn)) { dx[i] = 0.0f; return; }
  var g = gy[u_g_offset() + select(0u, n, u_mean() == 2u)];
  if (u_mean() == 1u) {
    let count = aux[2u * N];
    g = select(0.0f, g / count, count > 0.0f);   // no targets left: a zero gradient, as PyTorch
  }
  let p = exp_c(x[u_x_offset() + i] - aux[N + n]);
  dx[i] = g * (p - select(0.0f, 1.0f, u32(tn) == c));
}
