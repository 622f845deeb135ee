// Helpers every elementwise and reduction kernel can use. NaN and infinity are tested by bit
// pattern: WGSL lets compilers assume floats are finite, so `x != x` may be folded away. The math
// helpers give PyTorch's values where WGSL builtins are undefined or imprecise.
fn is_nan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn is_inf(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }
fn is_finite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }
// NaN and inf cannot be WGSL constants (a constant expression that makes one fails to compile),
// so they are built from uniform word 63, which no dispatch writes and is always 0.
fn f32_nan() -> f32 { return bitcast<f32>(0x7fc00000u | pu(63u)); }
fn f32_inf() -> f32 { return bitcast<f32>(0x7f800000u | pu(63u)); }
fn nonzero_f(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) != 0u; }
fn nonzero_i(x: i32) -> bool { return x != 0; }
fn nonzero_u(x: u32) -> bool { return x != 0u; }

fn log_f(a: f32) -> f32 {
  if (is_nan(a)) { return a; }
  if (a < 0.0f) { return f32_nan(); }
  if (a == 0.0f) { return -f32_inf(); }
  if (a == f32_inf()) { return a; }
  return log(a);
}

// exp(x) - 1 without cancellation near 0 (Kahan's trick)
fn expm1_f(a: f32) -> f32 {
  if (is_nan(a)) { return a; }
  if (a > 88.72284f) { return f32_inf(); }
  if (a < -20.0f) { return -1.0f; }
  if (abs(a) < 1e-5f) { return a + 0.5f * a * a; }
  let u = exp(a);
  if (u == 1.0f) { return a; }
  let um1 = u - 1.0f;
  if (um1 == -1.0f) { return -1.0f; }
  return um1 * a / log(u);
}

fn tanh_f(a: f32) -> f32 {
  if (is_nan(a)) { return a; }
  let x = abs(a);
  var r: f32;
  if (x > 9.1f) {
    r = 1.0f;
  } else if (x < 0.55f) {
    // odd polynomial (minimax on [0, 0.55])
    let x2 = x * x;
    r = x + x * x2 * (-0.33333331f + x2 * (0.13333065f + x2 * (-0.05396137f + x2 * (0.021862596f - x2 * 0.0074541485f))));
  } else {
    r = 1.0f - 2.0f / (exp(2.0f * x) + 1.0f);
  }
  return select(-r, r, a >= 0.0f);
}

fn sigmoid_f(a: f32) -> f32 {
  if (a >= 0.0f) { return 1.0f / (1.0f + exp(-a)); }
  let e = exp(a);
  return e / (1.0f + e);
}

fn log1p_f(a: f32) -> f32 {
  let u = 1.0f + a;
  if (u == 1.0f) { return a; }
  return log(u) * (a / (u - 1.0f));
}

fn softplus_f(a: f32, beta: f32, threshold: f32) -> f32 {
  if (a * beta > threshold) { return a; }
  return log1p_f(exp(a * beta)) / beta;
}

// erf with |error| < 2e-7: Abramowitz-Stegun 7.1.26 is too coarse; this is W. J. Cody's rational
// form as used by many float32 libms (two ranges)
fn erf_f(a: f32) -> f32 {
  if (is_nan(a)) { return a; }
  let x = abs(a);
  var r: f32;
  if (x < 0.84375f) {
    let z = x * x;
    let p = 1.28379166e-01f + z * (-3.25042099e-01f + z * (-2.84817495e-02f + z * (-5.77027029e-03f + z * -2.37630166e-05f)));
    let q = 1.0f + z * (3.97917223e-01f + z * (6.50222499e-02f + z * (5.08130628e-03f + z * (1.32494738e-04f + z * -3.96022827e-06f))));
    r = x + x * (p / q);
  } else if (x < 1.25f) {
    let s = x - 1.0f;
    let p = -2.36211856e-03f + s * (4.14856118e-01f + s * (-3.72207481e-01f + s * (3.18346626e-01f + s * (-1.10894695e-01f + s * (3.54783044e-02f + s * -2.16637553e-03f)))));
    let q = 1.0f + s * (1.06420882e-01f + s * (5.40397918e-01f + s * (7.18286526e-02f + s * (1.26171219e-01f + s * (1.36370836e-02f + s * 1.19844998e-02f)))));
    r = 8.45062911e-01f + p / q;
  } else if (x < 4.0f) {
    let s = 1.0f / (x * x);
    var R: f32;
    var S: f32;
    if (x < 2.857142857f) {
      R = -9.86494403e-03f + s * (-6.93858552e-01f + s * (-1.05586262e+01f + s * (-6.23753357e+01f + s * (-1.62396667e+02f + s * (-1.84605087e+02f + s * (-8.12874374e+01f + s * -9.81432915e+00f))))));
      S = 1.0f + s * (1.96512711e+01f + s * (1.37657745e+02f + s * (4.34565887e+02f + s * (6.45387268e+02f + s * (4.29008148e+02f + s * (1.08635002e+02f + s * (6.57024956e+00f + s * -6.04244173e-02f)))))));
    } else {
      R = -9.86494310e-03f + s * (-7.99283254e-01f + s * (-1.77579546e+01f + s * (-1.60636383e+02f + s * (-6.37566406e+02f + s * (-1.02509509e+03f + s * -4.83519196e+02f)))));
      S = 1.0f + s * (3.03380623e+01f + s * (3.25792511e+02f + s * (1.53672998e+03f + s * (3.19985815e+03f + s * (2.55305029e+03f + s * (4.74528564e+02f + s * -2.24409524e+01f))))));
    }
    let z = bitcast<f32>(bitcast<u32>(x) & 0xfffff000u);
    let e = exp(-z * z - 0.5625f) * exp((z - x) * (z + x) + R / S);
    r = 1.0f - e / x;
  } else {
    r = 1.0f;
  }
  return select(-r, r, a >= 0.0f);
}

// x reduced into [-pi, pi] by an accurate multiple of 2*pi (Cody-Waite, three parts)
fn reduce_pi(a: f32) -> f32 {
  if (abs(a) <= 3.14159265f) { return a; }
  let k = round(a * 0.15915494309189535f);
  var r = a - k * 6.28125f;
  r = r - k * 0.0019353071795864769f;
  r = r - k * 1.3e-17f;
  return r;
}

fn pow_f(a: f32, b: f32) -> f32 {
  if (b == 0.0f || a == 1.0f) { return 1.0f; }
  if (is_nan(a) || is_nan(b)) { return f32_nan(); }
  if (b == 1.0f) { return a; }
  if (b == 2.0f) { return a * a; }
  let b_int = trunc(b) == b;
  let b_odd = b_int && (abs(b) < 16777216.0f) && ((i32(abs(b)) & 1) == 1);
  if (a == 0.0f) {
    if (b > 0.0f) { return select(0.0f, a, b_odd); }
    return select(f32_inf(), select(f32_inf(), -f32_inf(), bitcast<u32>(a) != 0u), b_odd);
  }
  if (is_inf(b)) {
    let m = abs(a);
    if (m == 1.0f) { return 1.0f; }
    if ((m > 1.0f) == (b > 0.0f)) { return f32_inf(); }
    return 0.0f;
  }
  if (a < 0.0f && !b_int) { return f32_nan(); }
  let m = abs(a);
  var r: f32;
  if (m == f32_inf()) {
    r = select(0.0f, f32_inf(), b > 0.0f);
  } else {
    r = exp2(b * log2(m));
  }
  return select(r, -r, a < 0.0f && b_odd);
}

fn ipow(a: i32, n: i32) -> i32 {
  var r = 1;
  var base = a;
  var e = n;
  loop {
    if (e <= 0) { break; }
    if ((e & 1) == 1) { r = r * base; }
    base = base * base;
    e = e >> 1u;
  }
  return r;
}
