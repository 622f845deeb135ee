// torch.linalg's decompositions: one workgroup of 64 threads per matrix of the batch, the matrix in
// a storage workspace of its own (row-major, float32), threads sharing each step's rows or columns
// and meeting at storage barriers. Decisions that steer every thread (convergence) go through
// workgroupUniformLoad; values every thread needs (a pivot, a rotation) are computed by every
// thread from the same data, or by thread 0 before a barrier.
// Uniform words: 0 N matrices, 1 m rows, 2 n columns, 3 k (columns of B, of Q), 4 input offset,
// 5 offset of B (lu).
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

const T: u32 = 64u;  // threads per workgroup (uniform word 63 is 0: it keeps NaN and inf out of constant folding)
var<workgroup> w_u: u32;
var<workgroup> w_f: f32;

fn matrix_index(wg: vec3<u32>, nwg: vec3<u32>) -> u32 { return wg.y * nwg.x + wg.x; }
fn is_nan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
// does value u (at index j) sort before v (at index i), ascending, NaN last, ties by index: a total
// order, so that every output position is written once
fn sorts_before(u: f32, j: u32, v: f32, i: u32) -> bool {
  if (is_nan(u) || is_nan(v)) { return select(!is_nan(u), j < i, is_nan(u) && is_nan(v)); }
  return u < v || (u == v && j < i);
}
// -sign(a) * h with Fortran's SIGN (+0 counts as positive): LAPACK's Householder beta
fn neg_sign(h: f32, a: f32) -> f32 { return select(-h, h, a < 0.0); }
// the rotation (c, s, t = s / c) that zeroes the (p, q) entry of [[app, apq], [apq, aqq]] (Golub and
// Van Loan's sym.schur2); (1, 0, 0) when apq is already negligible
fn rotation(app: f32, aqq: f32, apq: f32) -> vec3<f32> {
  let small = abs(apq) <= 1.1920929e-7 * sqrt(abs(app * aqq)) || apq == 0.0;
  let tau = (aqq - app) / (2.0 * select(apq, 1.0, small));
  let t = select(-1.0, 1.0, tau >= 0.0) / (abs(tau) + sqrt(1.0 + tau * tau));
  let c = 1.0 / sqrt(1.0 + t * t);
  return select(vec3<f32>(c, t * c, t), vec3<f32>(1.0, 0.0, 0.0), small);
}

//@op lu
// Gaussian elimination with partial pivoting on [A | B] for the m x n A (B: n x k, k may be 0; B only
// when m == n), then back substitution: X = A^-1 B. W ends as LAPACK's getrf leaves A: U on and above
// the diagonal, L's multipliers below. aux per matrix (4 + min(m, n) words): det, sign, log|det|,
// info (the 1-based column of the first zero pivot), then the 1-based pivot rows; all as floats.
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> W: array<f32>;
@group(0) @binding(4) var<storage, read_write> X: array<f32>;
@group(0) @binding(5) var<storage, read_write> aux: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let mi = matrix_index(wg, nwg);
  if (mi >= pu(0u)) { return; }
  let m = pu(1u);
  let n = pu(2u);
  let k = pu(3u);
  let r = min(m, n);
  let base = mi * m * n;
  let xb = mi * n * k;
  let ab = mi * (4u + r);
  for (var e = li; e < m * n; e += T) { W[base + e] = a[pu(4u) + base + e]; }
  for (var e = li; e < n * k; e += T) { X[xb + e] = b[pu(5u) + xb + e]; }
  var info = 0u;
  var sign = 1.0;
  storageBarrier();
  for (var c = 0u; c < r; c++) {
    if (li == 0u) {
      var p = c;
      var best = abs(W[base + c * n + c]);
      for (var i = c + 1u; i < m; i++) {
        let v = abs(W[base + i * n + c]);
        if (v > best) { best = v; p = i; }
      }
      w_u = p;
      aux[ab + 4u + c] = f32(p + 1u);
    }
    workgroupBarrier();
    let p = w_u;
    for (var j = li; j < n; j += T) {
      let t = W[base + c * n + j];
      W[base + c * n + j] = W[base + p * n + j];
      W[base + p * n + j] = t;
    }
    for (var j = li; j < k; j += T) {
      let t = X[xb + c * k + j];
      X[xb + c * k + j] = X[xb + p * k + j];
      X[xb + p * k + j] = t;
    }
    storageBarrier();
    let piv = W[base + c * n + c];
    if (li == 0u) {
      if (p != c) { sign = -sign; }
      if (piv == 0.0 && info == 0u) { info = c + 1u; }
    }
    for (var i = c + 1u + li; i < m; i += T) {
      W[base + i * n + c] = select(W[base + i * n + c] / piv, 0.0, piv == 0.0);
    }
    storageBarrier();
    let rows = m - c - 1u;
    let cols = n - c - 1u + k;
    for (var e = li; e < rows * cols; e += T) {
      let i = c + 1u + e / cols;
      let j = e % cols;
      let l = W[base + i * n + c];
      if (j < n - c - 1u) {
        W[base + i * n + c + 1u + j] -= l * W[base + c * n + c + 1u + j];
      } else {
        X[xb + i * k + j - (n - c - 1u)] -= l * X[xb + c * k + j - (n - c - 1u)];
      }
    }
    storageBarrier();
  }
  for (var cc = 0u; cc < select(0u, n, k > 0u); cc++) {
    let c = n - 1u - cc;
    let d = W[base + c * n + c];
    for (var j = li; j < k; j += T) { X[xb + c * k + j] /= d; }
    storageBarrier();
    for (var e = li; e < c * k; e += T) {
      let i = e / k;
      let j = e % k;
      X[xb + i * k + j] -= W[base + i * n + c] * X[xb + c * k + j];
    }
    storageBarrier();
  }
  if (li == 0u) {
    var det = sign;
    var sg = sign;
    var logabs = 0.0;
    for (var i = 0u; i < r; i++) {
      let d = W[base + i * n + i];
      det *= d;
      sg *= select(select(0.0, 1.0, d > 0.0), -1.0, d < 0.0);
      logabs += log(abs(d));
    }
    aux[ab] = det;
    aux[ab + 1u] = select(sg, 0.0, info != 0u);
    aux[ab + 2u] = logabs;
    aux[ab + 3u] = f32(info);
  }
}

//@op cholesky
// A = L L^T column by column from A's lower triangle; info: the order of the first leading minor that
// is not positive (its diagonal entry is then NaN).
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> L: array<f32>;
@group(0) @binding(3) var<storage, read_write> info: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let mi = matrix_index(wg, nwg);
  if (mi >= pu(0u)) { return; }
  let n = pu(2u);
  let base = mi * n * n;
  for (var e = li; e < n * n; e += T) { L[base + e] = a[pu(4u) + base + e]; }
  var bad = 0u;
  storageBarrier();
  for (var j = 0u; j < n; j++) {
    if (li == 0u) {
      var d = L[base + j * n + j];
      for (var q = 0u; q < j; q++) { d -= L[base + j * n + q] * L[base + j * n + q]; }
      let ok = d > 0.0;
      if (!ok && bad == 0u) { bad = j + 1u; }
      L[base + j * n + j] = select(bitcast<f32>(0x7fc00000u | pu(63u)), sqrt(d), ok);
      w_f = select(1.0, sqrt(d), ok);
    }
    storageBarrier();
    workgroupBarrier();
    let r = w_f;
    for (var i = j + 1u + li; i < n; i += T) {
      var s = L[base + i * n + j];
      for (var q = 0u; q < j; q++) { s -= L[base + i * n + q] * L[base + j * n + q]; }
      L[base + i * n + j] = s / r;
    }
    storageBarrier();
  }
  if (li == 0u) { info[mi] = i32(bad); }
}

//@op qr
// Householder QR with LAPACK's conventions (dgeqrf's reflectors, dorgqr's Q). R: the m x n
// workspace (R is its upper part), Q: m x k, H: the reflectors, (m + 1) x r (row m: tau), r = min(m, n).
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> R: array<f32>;
@group(0) @binding(3) var<storage, read_write> Q: array<f32>;
@group(0) @binding(4) var<storage, read_write> H: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let mi = matrix_index(wg, nwg);
  if (mi >= pu(0u)) { return; }
  let m = pu(1u);
  let n = pu(2u);
  let k = pu(3u);
  let r = min(m, n);
  let base = mi * m * n;
  let hb = mi * (m + 1u) * r;
  let qb = mi * m * k;
  for (var e = li; e < m * n; e += T) { R[base + e] = a[pu(4u) + base + e]; }
  storageBarrier();
  for (var c = 0u; c < r; c++) {
    let alpha = R[base + c * n + c];
    var ss = 0.0;
    for (var i = c + 1u; i < m; i++) { ss += R[base + i * n + c] * R[base + i * n + c]; }
    let none = ss == 0.0;
    let beta = select(neg_sign(sqrt(alpha * alpha + ss), alpha), alpha, none);
    let tau = select((beta - alpha) / beta, 0.0, none);
    let scale = select(1.0 / (alpha - beta), 0.0, none);
    for (var i = c + li; i < m; i += T) {
      H[hb + i * r + c] = select(R[base + i * n + c] * scale, 1.0, i == c);
    }
    if (li == 0u) { H[hb + m * r + c] = tau; }
    storageBarrier();
    for (var j = c + 1u + li; j < n; j += T) {
      var s = 0.0;
      for (var i = c; i < m; i++) { s += H[hb + i * r + c] * R[base + i * n + j]; }
      s *= tau;
      for (var i = c; i < m; i++) { R[base + i * n + j] -= s * H[hb + i * r + c]; }
    }
    for (var i = c + li; i < m; i += T) { R[base + i * n + c] = select(0.0, beta, i == c); }
    storageBarrier();
  }
  for (var e = li; e < m * k; e += T) { Q[qb + e] = select(0.0, 1.0, e / k == e % k); }
  storageBarrier();
  for (var cc = 0u; cc < r; cc++) {
    let c = r - 1u - cc;
    let tau = H[hb + m * r + c];
    for (var j = li; j < k; j += T) {
      var s = 0.0;
      for (var i = c; i < m; i++) { s += H[hb + i * r + c] * Q[qb + i * k + j]; }
      s *= tau;
      for (var i = c; i < m; i++) { Q[qb + i * k + j] -= s * H[hb + i * r + c]; }
    }
    storageBarrier();
  }
}

//@op eigh
// Cyclic Jacobi on the symmetric n x n A: rotations over every pair (p, q) until the off-diagonal
// part is below (n * eps) of the whole (at most 30 sweeps); then the eigenvalues ascending (ties by
// index) and their eigenvectors (columns).
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> A: array<f32>;
@group(0) @binding(3) var<storage, read_write> V: array<f32>;
@group(0) @binding(4) var<storage, read_write> w: array<f32>;
@group(0) @binding(5) var<storage, read_write> Vout: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let mi = matrix_index(wg, nwg);
  if (mi >= pu(0u)) { return; }
  let n = pu(2u);
  let base = mi * n * n;
  for (var e = li; e < n * n; e += T) {
    A[base + e] = a[pu(4u) + base + e];
    V[base + e] = select(0.0, 1.0, e / n == e % n);
  }
  storageBarrier();
  for (var sweep = 0u; sweep < 30u; sweep++) {
    if (li == 0u) {
      var off = 0.0;
      var tot = 0.0;
      for (var e = 0u; e < n * n; e++) {
        let v = A[base + e] * A[base + e];
        tot += v;
        off += select(v, 0.0, e / n == e % n);
      }
      let tol = f32(n) * 1.1920929e-7;
      w_u = select(0u, 1u, off <= tol * tol * tot);
    }
    if (workgroupUniformLoad(&w_u) == 1u) { break; }
    for (var p = 0u; p + 1u < n; p++) {
      for (var q = p + 1u; q < n; q++) {
        let app = A[base + p * n + p];
        let aqq = A[base + q * n + q];
        let apq = A[base + p * n + q];
        let cs = rotation(app, aqq, apq);
        storageBarrier();
        for (var i = li; i < n; i += T) {
          let ap = A[base + i * n + p];
          let aq = A[base + i * n + q];
          A[base + i * n + p] = cs.x * ap - cs.y * aq;
          A[base + i * n + q] = cs.y * ap + cs.x * aq;
          let vp = V[base + i * n + p];
          let vq = V[base + i * n + q];
          V[base + i * n + p] = cs.x * vp - cs.y * vq;
          V[base + i * n + q] = cs.y * vp + cs.x * vq;
        }
        storageBarrier();
        for (var i = li; i < n; i += T) {
          let ap = A[base + p * n + i];
          let aq = A[base + q * n + i];
          A[base + p * n + i] = cs.x * ap - cs.y * aq;
          A[base + q * n + i] = cs.y * ap + cs.x * aq;
          // the 2 x 2 block in closed form (more accurate than two rotations of it)
          if (i == p) {
            A[base + p * n + p] = app - cs.z * apq;
            A[base + q * n + p] = 0.0;
          } else if (i == q) {
            A[base + q * n + q] = aqq + cs.z * apq;
            A[base + p * n + q] = 0.0;
          }
        }
        storageBarrier();
      }
    }
  }
  for (var i = li; i < n; i += T) {
    let v = A[base + i * n + i];
    var rank = 0u;
    for (var j = 0u; j < n; j++) {
      let u = A[base + j * n + j];
      rank += select(0u, 1u, sorts_before(u, j, v, i));
    }
    w[mi * n + rank] = v;
    for (var r = 0u; r < n; r++) { Vout[base + r * n + rank] = V[base + r * n + i]; }
  }
}

//@op svd
// One-sided (Hestenes) Jacobi on the m x n A, m >= n: rotate pairs of columns of U = A (and of V = I)
// until every pair is orthogonal to n * eps (at most 30 sweeps); then S = ||A v_j|| (descending), U's
// columns A v_j / S_j, Vh = V^T in the same order.
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> U: array<f32>;
@group(0) @binding(3) var<storage, read_write> V: array<f32>;
@group(0) @binding(4) var<storage, read_write> S: array<f32>;
@group(0) @binding(5) var<storage, read_write> Uout: array<f32>;
@group(0) @binding(6) var<storage, read_write> Vh: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let mi = matrix_index(wg, nwg);
  if (mi >= pu(0u)) { return; }
  let m = pu(1u);
  let n = pu(2u);
  let ub = mi * m * n;
  let vb = mi * n * n;
  for (var e = li; e < m * n; e += T) { U[ub + e] = a[pu(4u) + ub + e]; }
  for (var e = li; e < n * n; e += T) { V[vb + e] = select(0.0, 1.0, e / n == e % n); }
  storageBarrier();
  let tol = f32(n) * 1.1920929e-7;
  for (var sweep = 0u; sweep < 30u; sweep++) {
    if (li == 0u) { w_u = 1u; }
    for (var p = 0u; p + 1u < n; p++) {
      for (var q = p + 1u; q < n; q++) {
        var al = 0.0;
        var be = 0.0;
        var ga = 0.0;
        for (var i = 0u; i < m; i++) {
          let x = U[ub + i * n + p];
          let y = U[ub + i * n + q];
          al += x * x;
          be += y * y;
          ga += x * y;
        }
        if (li == 0u && abs(ga) > tol * sqrt(al * be)) { w_u = 0u; }
        let cs = rotation(al, be, ga);
        storageBarrier();
        for (var i = li; i < m; i += T) {
          let x = U[ub + i * n + p];
          let y = U[ub + i * n + q];
          U[ub + i * n + p] = cs.x * x - cs.y * y;
          U[ub + i * n + q] = cs.y * x + cs.x * y;
        }
        for (var i = li; i < n; i += T) {
          let x = V[vb + i * n + p];
          let y = V[vb + i * n + q];
          V[vb + i * n + p] = cs.x * x - cs.y * y;
          V[vb + i * n + q] = cs.y * x + cs.x * y;
        }
        storageBarrier();
      }
    }
    if (workgroupUniformLoad(&w_u) == 1u) { break; }
  }
  // sigma_j = ||A v_j|| / ||v_j|| from the input A: first-order insensitive to the error the rotations
  // left in v_j (||A v|| / ||v|| is stationary at a singular vector), unlike the rotated columns' norms,
  // whose rounding random-walks over the ~2 n sweeps rotations of each column
  for (var j = li; j < n; j += T) {
    var vv = 0.0;
    for (var i = 0u; i < n; i++) { vv += V[vb + i * n + j] * V[vb + i * n + j]; }
    let vn = 1.0 / sqrt(vv);
    for (var i = 0u; i < n; i++) { V[vb + i * n + j] *= vn; }
    var ss = 0.0;
    for (var i = 0u; i < m; i++) {
      var y = 0.0;
      for (var q = 0u; q < n; q++) { y += a[pu(4u) + ub + i * n + q] * V[vb + q * n + j]; }
      U[ub + i * n + j] = y;
      ss += y * y;
    }
    S[mi * n + j] = sqrt(ss);
  }
  storageBarrier();
  for (var j = li; j < n; j += T) {
    let s = S[mi * n + j];
    var rank = 0u;
    for (var q = 0u; q < n; q++) {
      let t = S[mi * n + q];
      rank += select(0u, 1u, sorts_before(-t, q, -s, j));
    }
    let inv = select(1.0 / s, 0.0, s == 0.0);
    for (var i = 0u; i < m; i++) { Uout[ub + i * n + rank] = U[ub + i * n + j] * inv; }
    for (var i = 0u; i < n; i++) { Vh[vb + rank * n + i] = V[vb + i * n + j]; }
  }
  storageBarrier();
  // S in place, sorted: every thread read its own value above; write after the barrier
  for (var j = li; j < n; j += T) {
    let s = S[mi * n + j];
    var rank = 0u;
    for (var q = 0u; q < n; q++) {
      let t = S[mi * n + q];
      rank += select(0u, 1u, sorts_before(-t, q, -s, j));
    }
    U[ub + rank] = s;
  }
  storageBarrier();
  for (var j = li; j < n; j += T) { S[mi * n + j] = U[ub + j]; }
}
