// Unary elementwise ops. Each //@op block defines `fn op(a: C) -> R`; op parameters are read with
// u_param(0u), u_param(1u), u_param(2u). Special values are handled explicitly: WGSL leaves builtins undefined
// (or imprecise) outside their domain, and PyTorch defines the result there.

//@op copy
fn op(a: C) -> R { return a; }

//@op neg
fn op(a: C) -> R { return -a; }

//@op abs
fn op(a: C) -> R { return abs(a); }

//@op sign
// NaN gives 0, as in PyTorch
fn op(a: C) -> R {
  if (a > C(0)) { return C(1); }
  if (a < C(0)) { return C(-1); }
  return C(0);
}

//@op exp
fn op(a: C) -> R {
  if (is_nan(a)) { return a; }
  if (a > 88.72284f) { return f32_inf(); }
  if (a < -103.97208f) { return 0.0f; }
  return exp(a);
}

//@op exp2
fn op(a: C) -> R {
  if (is_nan(a)) { return a; }
  if (a >= 128.0f) { return f32_inf(); }
  if (a < -150.0f) { return 0.0f; }
  return exp2(a);
}

//@op log
fn op(a: C) -> R { return log_f(a); }

//@op log2
fn op(a: C) -> R { return log_f(a) * 1.4426950408889634f; }

//@op log10
fn op(a: C) -> R { return log_f(a) * 0.4342944819032518f; }

//@op log1p
fn op(a: C) -> R {
  if (is_nan(a) || a == f32_inf()) { return a; }
  if (a < -1.0f) { return f32_nan(); }
  if (a == -1.0f) { return -f32_inf(); }
  return log1p_f(a);
}

//@op expm1
fn op(a: C) -> R { return expm1_f(a); }

//@op sqrt
fn op(a: C) -> R {
  if (a == 0.0f) { return a; }
  if (a < 0.0f) { return f32_nan(); }
  return sqrt(a);
}

//@op rsqrt
fn op(a: C) -> R {
  if (a == 0.0f) { return select(f32_inf(), -f32_inf(), bitcast<u32>(a) != 0u); }
  if (a < 0.0f || is_nan(a)) { return f32_nan(); }
  if (a == f32_inf()) { return 0.0f; }
  return 1.0f / sqrt(a);
}

//@op square
fn op(a: C) -> R { return a * a; }

//@op reciprocal
fn op(a: C) -> R { return R(div_f(1.0f, f32(a))); }

//@op sin
fn op(a: C) -> R { return sin_f(a); }

//@op cos
fn op(a: C) -> R { return cos_f(a); }

//@op tan
fn op(a: C) -> R { return tan_f(a); }

//@op asin
fn op(a: C) -> R { return asin_f(a); }

//@op acos
fn op(a: C) -> R { return acos_f(a); }

//@op atan
fn op(a: C) -> R { return atan_f(a); }

//@op tanh
fn op(a: C) -> R { return tanh_f(a); }

//@op sinh
fn op(a: C) -> R {
  if (is_nan(a)) { return a; }
  let x = abs(a);
  if (x > 89.41599f) { return select(-f32_inf(), f32_inf(), a > 0.0f); }
  var r: f32;
  if (x < 1.0f) {
    let u = expm1_f(x);
    r = 0.5f * (u + u / (u + 1.0f));
  } else {
    let e = exp(x - 0.6931471805599453f);
    r = e - 0.25f / e;
  }
  return copysign_f(r, a);
}

//@op cosh
fn op(a: C) -> R {
  if (is_nan(a)) { return a; }
  let x = abs(a);
  if (x > 89.41599f) { return f32_inf(); }
  let e = exp(x - 0.6931471805599453f);
  return e + 0.25f / e;
}

//@op sigmoid
fn op(a: C) -> R { return sigmoid_f(a); }

//@op relu
// below zero by sign and magnitude: compilers turn select(a, 0, a < 0) into max(a, 0), which
// loses relu(-0.0) = -0.0 and NaN
fn op(a: C) -> R { return select(a, C(0), below_zero(a)); }

//@op erf
fn op(a: C) -> R { return erf_f(a); }

//@op floor
fn op(a: C) -> R { return floor(a); }

//@op ceil
fn op(a: C) -> R { return ceil(a); }

//@op round
fn op(a: C) -> R { return round(a); }

//@op round_decimals
fn op(a: C) -> R {
  let s = u_param(0u);
  if (!is_finite(a)) { return a; }
  return round(a * s) / s;
}

//@op trunc
fn op(a: C) -> R { return trunc(a); }

//@op frac
fn op(a: C) -> R {
  if (is_inf(a)) { return f32_nan(); }
  return a - trunc(a);
}

//@op isnan
fn op(a: C) -> R { return R(is_nan(f32(a))); }

//@op isinf
fn op(a: C) -> R { return R(is_inf(f32(a))); }

//@op isfinite
fn op(a: C) -> R { return R(is_finite(f32(a))); }

//@op logical_not
fn op(a: C) -> R { return R(!nonzero(a)); }

//@op nan_to_num
fn op(a: C) -> R {
  if (is_nan(a)) { return u_param(0u); }
  if (a == f32_inf()) { return u_param(1u); }
  if (a == -f32_inf()) { return u_param(2u); }
  return a;
}

//@op relu6
fn op(a: C) -> R {
  if (is_nan(f32(a))) { return a; }
  return min(max(a, C(0)), C(6));
}

//@op hardtanh
fn op(a: C) -> R {
  if (is_nan(f32(a))) { return a; }
  return min(max(a, C(u_param(0u))), C(u_param(1u)));
}

//@op leaky_relu
fn op(a: C) -> R { return select(a, a * u_param(0u), a < 0.0f); }

//@op elu
fn op(a: C) -> R { return select(a, u_param(0u) * expm1_f(a), a <= 0.0f); }

//@op selu
fn op(a: C) -> R {
  return 1.0507009873554805f * select(a, 1.6732632423543772f * expm1_f(a), a <= 0.0f);
}

//@op gelu
fn op(a: C) -> R { return 0.5f * a * (1.0f + erf_f(a * 0.7071067811865476f)); }

//@op gelu_tanh
fn op(a: C) -> R {
  let inner = 0.7978845608028654f * (a + 0.044715f * a * a * a);
  return 0.5f * a * (1.0f + tanh_f(inner));
}

//@op silu
fn op(a: C) -> R { return a * sigmoid_f(a); }

//@op mish
fn op(a: C) -> R { return a * tanh_f(softplus_f(a, 1.0f, 20.0f)); }

//@op softplus
fn op(a: C) -> R { return softplus_f(a, u_param(0u), u_param(1u)); }

//@op hardswish
fn op(a: C) -> R {
  if (is_nan(a)) { return a; }
  return a * min(max(a + 3.0f, 0.0f), 6.0f) / 6.0f;
}

//@op hardsigmoid
fn op(a: C) -> R {
  if (is_nan(a)) { return a; }
  return min(max(a + 3.0f, 0.0f), 6.0f) / 6.0f;
}

//@op pow2_floor
// the largest power of two not above |a| (a's exponent bits): exact scaling factors
fn op(a: C) -> R { return bitcast<f32>(bitcast<u32>(a) & 0x7f800000u); }

//@op pow_scalar
// a ** u_param(0u)
fn op(a: C) -> R { return pow_f(a, u_param(0u)); }

//@op rpow_scalar
// u_param(0u) ** a
fn op(a: C) -> R { return pow_f(u_param(0u), a); }

//@op ipow_scalar
// integer a ** n (n: the parameter word read as an i32)
fn op(a: C) -> R { return ipow(a, bitcast<i32>(u_param(0u))); }

// ---- the activations of borch_webgpu/ops/_nn_act.py (celu, hardshrink, softshrink, softsign, tanhshrink,
// logsigmoid); NaN stays NaN in each, as in PyTorch

//@op celu
// u_param(0u): alpha (not 0)
fn op(a: C) -> R { return select(a, u_param(0u) * expm1_f(a / u_param(0u)), a <= 0.0f); }

//@op hardshrink
fn op(a: C) -> R { return select(a, 0.0f, a >= -u_param(0u) && a <= u_param(0u)); }

//@op softshrink
fn op(a: C) -> R {
  let l = u_param(0u);
  if (a > l) { return a - l; }
  if (a < -l) { return a + l; }
  return select(0.0f, a, is_nan(a));
}

//@op softsign
fn op(a: C) -> R { return a / (1.0f + abs(a)); }

//@op tanhshrink
fn op(a: C) -> R { return a - tanh_f(a); }

//@op logsigmoid
fn op(a: C) -> R { return -softplus_f(-a, 1.0f, 20.0f); }
