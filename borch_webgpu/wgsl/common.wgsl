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
// x unchanged, but opaque to the compiler: GPU compilers rewrite (1 + a) - 1 into a, which breaks
// the error-compensation tricks below (seen on NVIDIA through Dawn)
fn opaque(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) ^ pu(63u)); }
// a / b that survives |b| > 2^126: GPUs divide by multiplying with 1/b, a subnormal they flush
fn div_f(a: f32, b: f32) -> f32 {
  if (abs(b) > 8.507059e37f) { return (a * 0.25f) / (b * 0.25f); }
  return a / b;
}
fn nonzero_f(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) != 0u; }
// the sign bit (true for -0.0 too) and copysign: compilers may fold 0 * x or x < 0 for zeros
fn neg_bit(x: f32) -> bool { return (bitcast<u32>(x) & 0x80000000u) != 0u; }
fn copysign_f(r: f32, s: f32) -> f32 { return bitcast<f32>((bitcast<u32>(r) & 0x7fffffffu) | (bitcast<u32>(s) & 0x80000000u)); }
fn nonzero_i(x: i32) -> bool { return x != 0; }
fn nonzero_u(x: u32) -> bool { return x != 0u; }

// log(1 + x) for x in [sqrt(1/2) - 1, sqrt(2) - 1] (Cephes logf's polynomial): GPU log builtins
// have an absolute error of about 2^-22 near 1, far from PyTorch's results there
fn log1p_poly(x: f32) -> f32 {
  let z = x * x;
  var y = ((((((((7.0376836292e-2f * x - 1.1514610310e-1f) * x + 1.1676998740e-1f) * x - 1.2420140846e-1f) * x
            + 1.4249322787e-1f) * x - 1.6668057665e-1f) * x + 2.0000714765e-1f) * x - 2.4999993993e-1f) * x
            + 3.3333331174e-1f) * x * z;
  y = y - 0.5f * z;
  return x + y;
}
// natural log to about 1 ulp for positive normal numbers (Cephes logf)
fn log_acc(a: f32) -> f32 {
  let fe = frexp(a);
  var x = fe.fract;
  var e = f32(fe.exp);
  if (x < 0.70710678118654752f) { e = e - 1.0f; x = x + x - 1.0f; } else { x = x - 1.0f; }
  return log1p_poly(x) + (-2.12194440e-4f * e) + 0.693359375f * e;
}
fn log_f(a: f32) -> f32 {
  if (is_nan(a)) { return a; }
  if (a < 0.0f) { return f32_nan(); }
  if (a == 0.0f) { return -f32_inf(); }
  if (a == f32_inf()) { return a; }
  if (a < 1.1754944e-38f) { return log(a); }
  return log_acc(a);
}

// exp(x) - 1 without cancellation near 0 (Kahan's trick)
fn expm1_f(a: f32) -> f32 {
  if (is_nan(a) || a == 0.0f) { return a; }
  if (a > 88.72284f) { return f32_inf(); }
  if (a < -20.0f) { return -1.0f; }
  if (abs(a) < 1e-5f) { return a + 0.5f * a * a; }
  let u = opaque(exp(a));
  if (u == 1.0f) { return a; }
  let um1 = u - 1.0f;
  if (um1 == -1.0f) { return -1.0f; }
  return um1 * div_f(a, log_f(u));
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
  return copysign_f(r, a);
}

fn sigmoid_f(a: f32) -> f32 {
  if (a >= 0.0f) { return 1.0f / (1.0f + exp(-a)); }
  let e = exp(a);
  return e / (1.0f + e);
}

fn log1p_f(a: f32) -> f32 {
  if (a > -0.29289321881f && a < 0.41421356237f) { return log1p_poly(a); }
  return log_f(1.0f + a);
}

fn softplus_f(a: f32, beta: f32, threshold: f32) -> f32 {
  if (is_nan(a) || a * beta > threshold) { return a; }
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
  return copysign_f(r, a);
}

// sin and cos to about 1 ulp: x = j * pi/2 + r with pi/2 in three parts (Cody-Waite), then
// minimax polynomials on |r| <= pi/4 (Cephes sinf/cosf). WGSL's builtins only promise an
// absolute error of 2^-11, which is far from PyTorch's results.
struct Reduced { r: f32, q: i32 }
fn reduce_pio2(x: f32) -> Reduced {
  let j = round(x * 0.6366197723675814f);
  var r = x - j * 1.5703125f;
  r = r - j * 4.8375129699707031e-4f;
  r = r - j * 7.5497899548918821e-8f;
  return Reduced(r, i32(j));
}
fn sin_poly(r: f32) -> f32 {
  let z = r * r;
  return r + r * z * (-1.6666654611e-1f + z * (8.3321608736e-3f + z * -1.9515295891e-4f));
}
fn cos_poly(r: f32) -> f32 {
  let z = r * r;
  return 1.0f - 0.5f * z + z * z * (4.166664568298827e-2f + z * (-1.388731625493765e-3f + z * 2.443315711809948e-5f));
}
fn sin_f(x: f32) -> f32 {
  if (!is_finite(x)) { return f32_nan(); }
  if (x == 0.0f) { return x; }
  let a = reduce_pio2(x);
  let q = a.q & 3;
  if (q == 0) { return sin_poly(a.r); }
  if (q == 1) { return cos_poly(a.r); }
  if (q == 2) { return -sin_poly(a.r); }
  return -cos_poly(a.r);
}
fn cos_f(x: f32) -> f32 {
  if (!is_finite(x)) { return f32_nan(); }
  let a = reduce_pio2(x);
  let q = a.q & 3;
  if (q == 0) { return cos_poly(a.r); }
  if (q == 1) { return -sin_poly(a.r); }
  if (q == 2) { return -cos_poly(a.r); }
  return sin_poly(a.r);
}
fn tan_f(x: f32) -> f32 {
  if (!is_finite(x)) { return f32_nan(); }
  if (x == 0.0f) { return x; }
  let a = reduce_pio2(x);
  let s = sin_poly(a.r);
  let c = cos_poly(a.r);
  if ((a.q & 1) == 0) { return s / c; }
  return -c / s;
}

// inverse trig to about 1 ulp (Cephes asinf/atanf); WGSL's builtins are much coarser
fn asin_f(xx: f32) -> f32 {
  let a = abs(xx);
  if (is_nan(xx) || a > 1.0f) { return f32_nan(); }
  if (a < 1e-4f) { return xx; }
  var x = a;
  var z = a * a;
  let big = a > 0.5f;
  if (big) { z = 0.5f * (1.0f - a); x = sqrt(z); }
  var r = ((((4.2163199048e-2f * z + 2.4181311049e-2f) * z + 4.5470025998e-2f) * z + 7.4953002686e-2f) * z
           + 1.6666752422e-1f) * z * x + x;
  if (big) { r = 1.5707963267948966f - (r + r); }
  return copysign_f(r, xx);
}
fn acos_f(x: f32) -> f32 {
  if (is_nan(x) || abs(x) > 1.0f) { return f32_nan(); }
  if (x < -0.5f) { return 3.141592653589793f - 2.0f * asin_f(sqrt(0.5f * (1.0f + x))); }
  if (x > 0.5f) { return 2.0f * asin_f(sqrt(0.5f * (1.0f - x))); }
  return 1.5707963267948966f - asin_f(x);
}
fn atan_f(xx: f32) -> f32 {
  if (is_nan(xx)) { return xx; }
  var x = abs(xx);
  var y = 0.0f;
  if (x > 2.414213562373095f) {
    y = 1.5707963267948966f;
    x = -1.0f / x;
  } else if (x > 0.4142135623730950f) {
    y = 0.7853981633974483f;
    x = (x - 1.0f) / (x + 1.0f);
  }
  let z = x * x;
  y = y + (((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z - 3.33329491539e-1f) * z * x + x;
  return copysign_f(y, xx);
}
// atan2 with C99's special cases (signed zeros and infinities)
fn atan2_f(y: f32, x: f32) -> f32 {
  let pi = 3.141592653589793f;
  if (is_nan(x) || is_nan(y)) { return f32_nan(); }
  let yneg = (bitcast<u32>(y) & 0x80000000u) != 0u;
  let xneg = (bitcast<u32>(x) & 0x80000000u) != 0u;
  var r: f32;
  if (y == 0.0f) {
    if (xneg) { r = pi; } else { return y; }
  } else if (x == 0.0f) {
    r = 0.5f * pi;
  } else if (is_inf(y)) {
    if (is_inf(x)) { r = select(0.25f * pi, 0.75f * pi, xneg); } else { r = 0.5f * pi; }
  } else if (is_inf(x)) {
    if (xneg) { r = pi; } else { return copysign_f(0.0f, y); }
  } else {
    r = atan_f(abs(div_f(y, x)));
    if (xneg) { r = pi - r; }
  }
  return copysign_f(r, y);
}

// fmod exactly (musl's fmodf on the bit patterns): a - b * trunc(a / b) loses digits
fn fmod_f(x: f32, y: f32) -> f32 {
  var uxi = bitcast<u32>(x);
  var uyi = bitcast<u32>(y);
  var ex = i32((uxi >> 23u) & 0xffu);
  var ey = i32((uyi >> 23u) & 0xffu);
  let sx = uxi & 0x80000000u;
  if ((uyi << 1u) == 0u || is_nan(y) || ex == 0xff) { return f32_nan(); }
  if ((uxi << 1u) <= (uyi << 1u)) {
    if ((uxi << 1u) == (uyi << 1u)) { return copysign_f(0.0f, x); }
    return x;
  }
  if (ex == 0) {
    var i = uxi << 9u;
    loop { if ((i >> 31u) != 0u) { break; } ex -= 1; i <<= 1u; }
    uxi <<= u32(-ex + 1);
  } else {
    uxi &= 0x007fffffu;
    uxi |= 0x00800000u;
  }
  if (ey == 0) {
    var i = uyi << 9u;
    loop { if ((i >> 31u) != 0u) { break; } ey -= 1; i <<= 1u; }
    uyi <<= u32(-ey + 1);
  } else {
    uyi &= 0x007fffffu;
    uyi |= 0x00800000u;
  }
  loop {
    if (ex <= ey) { break; }
    let i = uxi - uyi;
    if ((i >> 31u) == 0u) {
      if (i == 0u) { return copysign_f(0.0f, x); }
      uxi = i;
    }
    uxi <<= 1u;
    ex -= 1;
  }
  let i = uxi - uyi;
  if ((i >> 31u) == 0u) {
    if (i == 0u) { return copysign_f(0.0f, x); }
    uxi = i;
  }
  loop { if ((uxi >> 23u) != 0u) { break; } uxi <<= 1u; ex -= 1; }
  if (ex > 0) {
    uxi -= 0x00800000u;
    uxi |= u32(ex) << 23u;
  } else {
    uxi >>= u32(-ex + 1);
  }
  return bitcast<f32>(uxi | sx);
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
    return select(f32_inf(), copysign_f(f32_inf(), a), b_odd);
  }
  if (is_inf(a)) {
    // C99: (+-inf)^y is inf for y > 0 and 0 for y < 0, negative only for odd integer y
    let m = select(0.0f, f32_inf(), b > 0.0f);
    return select(m, -m, a < 0.0f && b_odd);
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
  if (n < 0) {
    // integer powers with negative exponents: only 1 and -1 survive, as in PyTorch
    if (a == 1) { return 1; }
    if (a == -1) { return select(1, -1, (n & 1) == 1); }
    return 0;
  }
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
// exp(x) for |x| < 88.7 as 2^k exp(r), |r| <= ln2 / 2: WGSL lets the builtin's error grow with |x| (3 + 2|x|
// ulp), so it only sees the small remainder (i0, i1 and erfc's tail)
fn exp_reduced(x: f32) -> f32 {
  let k = round(x * 1.4426950408889634f);
  let r = (x - k * 0.693145751953125f) - k * 1.4286068203094172e-06f;
  return ldexp(exp(r), i32(k));
}
