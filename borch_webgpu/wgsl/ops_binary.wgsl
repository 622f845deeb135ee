// Binary and ternary elementwise ops. Each //@op block defines `fn op(a: C, b: C) -> R`
// (three operands: `fn op(a: C, b: C, c: C) -> R`), C being the compute type the operands are
// cast to on load and R the stored result type. Float comparisons test NaN by bit pattern.

//@op add
fn op(a: C, b: C) -> R { return a + b; }

//@op add_relu
// relu(a + b): an in-place relu right after an add becomes its epilogue (device/gpu_backend.py);
// below zero by sign and magnitude, as relu (keeps -0.0 and NaN)
fn op(a: C, b: C) -> R { let s = a + b; return select(s, C(0), below_zero(s)); }

//@op sub
fn op(a: C, b: C) -> R { return a - b; }

//@op mul
fn op(a: C, b: C) -> R { return a * b; }

//@op div
fn op(a: C, b: C) -> R { return div_f(a, b); }

//@op div_trunc_f
fn op(a: C, b: C) -> R { return trunc(div_f(a, b)); }

//@op div_floor_f
fn op(a: C, b: C) -> R {
  // PyTorch's div_floor: based on fmod so that the quotient is exact where possible
  if (b == 0.0f) { return a / b; }
  let m = fmod_f(a, b);
  var d = div_f(a - m, b);
  if (m != 0.0f && ((b < 0.0f) != (m < 0.0f))) { d = d - 1.0f; }
  if (d == 0.0f) {
    // copysign(0, a / b)
    let q = div_f(a, b);
    return bitcast<f32>(bitcast<u32>(q) & 0x80000000u);
  }
  let f = floor(d);
  if (d - f > 0.5f) { return f + 1.0f; }
  return f;
}

//@op div_trunc_i
// integer blocks: a zero divisor is recorded (zero_div: these bind the error buffer, ops_int64.wgsl)
fn op(a: C, b: C) -> R {
  if (b == C(0)) { zero_div(bitcast<u32>(a)); return R(0); }
  return a / b;
}

//@op div_floor_i
fn op(a: C, b: C) -> R {
  if (b == C(0)) { zero_div(bitcast<u32>(a)); return R(0); }
  let q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) { return q - 1; }
  return q;
}

//@op remainder_f
fn op(a: C, b: C) -> R {
  // a quotient that overflows has no representable remainder: NaN, as PyTorch's vectorized kernel
  if (is_finite(a) && is_finite(b) && b != 0.0f && !is_finite(a / b)) { return f32_nan(); }
  if (is_inf(b) && is_finite(a)) {
    if (a == 0.0f || (a < 0.0f) == (b < 0.0f)) { return a; }
    return b;
  }
  var m = fmod_f(a, b);
  if (m != 0.0f && ((b < 0.0f) != (m < 0.0f))) { m = m + b; }
  return m;
}

//@op remainder_i
fn op(a: C, b: C) -> R {
  if (b == C(0)) { zero_div(bitcast<u32>(a)); return R(0); }
  var m = a % b;
  if (m != 0 && ((b < 0) != (m < 0))) { m = m + b; }
  return m;
}

//@op fmod_f
fn op(a: C, b: C) -> R {
  if (is_finite(a) && is_finite(b) && b != 0.0f && !is_finite(a / b)) { return f32_nan(); }
  return fmod_f(a, b);
}

//@op fmod_i
fn op(a: C, b: C) -> R {
  if (b == C(0)) { zero_div(bitcast<u32>(a)); return R(0); }
  return a % b;
}

//@op pow
fn op(a: C, b: C) -> R { return pow_f(a, b); }

//@op pow_i
fn op(a: C, b: C) -> R { return ipow(a, b); }

//@op atan2
fn op(a: C, b: C) -> R { return atan2_f(a, b); }

//@op maximum
// NaN wins; on equal values (0.0 and -0.0) the first operand, as in PyTorch
fn op(a: C, b: C) -> R {
  if (is_nan(f32(a))) { return a; }
  if (is_nan(f32(b))) { return b; }
  return select(a, b, a < b);
}

//@op minimum
fn op(a: C, b: C) -> R {
  if (is_nan(f32(a))) { return a; }
  if (is_nan(f32(b))) { return b; }
  return select(a, b, b < a);
}

//@op fmax
// NaN loses unless both are NaN
fn op(a: C, b: C) -> R {
  if (is_nan(f32(a))) { return b; }
  if (is_nan(f32(b))) { return a; }
  return select(a, b, a < b);
}

//@op fmin
fn op(a: C, b: C) -> R {
  if (is_nan(f32(a))) { return b; }
  if (is_nan(f32(b))) { return a; }
  return select(a, b, b < a);
}

//@op eq
fn op(a: C, b: C) -> R { return R(!is_nan(f32(a)) && !is_nan(f32(b)) && a == b); }

//@op ne
fn op(a: C, b: C) -> R { return R(is_nan(f32(a)) || is_nan(f32(b)) || a != b); }

//@op lt
fn op(a: C, b: C) -> R { return R(!is_nan(f32(a)) && !is_nan(f32(b)) && a < b); }

//@op le
fn op(a: C, b: C) -> R { return R(!is_nan(f32(a)) && !is_nan(f32(b)) && a <= b); }

//@op gt
fn op(a: C, b: C) -> R { return R(!is_nan(f32(a)) && !is_nan(f32(b)) && a > b); }

//@op ge
fn op(a: C, b: C) -> R { return R(!is_nan(f32(a)) && !is_nan(f32(b)) && a >= b); }

//@op logical_and
fn op(a: C, b: C) -> R { return R(nonzero(a) && nonzero(b)); }

//@op logical_or
fn op(a: C, b: C) -> R { return R(nonzero(a) || nonzero(b)); }

//@op logical_xor
fn op(a: C, b: C) -> R { return R(nonzero(a) != nonzero(b)); }

//@op where
fn op(c: C, a: C, b: C) -> R { return select(b, a, nonzero(c)); }

//@op add_scaled
// a + c * b: add / sub with alpha (c the scalar alpha, -alpha for sub) in one pass
fn op(a: C, b: C, c: C) -> R { return a + c * b; }

//@op add_threshold_backward
// threshold_backward(a + b, c): two gradients meeting at a relu's output c, summed and masked in one
// pass (device/trace_fusion.py fuses the add that only a threshold_backward reads)
fn op(a: C, b: C, c: C) -> R {
  if (!is_nan(f32(c)) && c <= 0.0f) { return R(0.0f); }
  return a + b;
}

//@op threshold_backward
// relu's gradient, PyTorch's threshold_backward(grad a, result b, 0): 0 where b <= 0, else a (a NaN
// result passes the gradient)
fn op(a: C, b: C) -> R {
  if (!is_nan(f32(b)) && b <= 0.0f) { return R(0.0f); }
  return a;
}

//@op lerp
fn op(a: C, b: C, w: C) -> R {
  if (abs(w) < 0.5f) { return a + w * (b - a); }
  return b - (b - a) * (1.0f - w);
}

//@op clamp
fn op(a: C, lo: C, hi: C) -> R {
  if (is_nan(f32(a))) { return a; }
  if (is_nan(f32(lo))) { return lo; }
  if (is_nan(f32(hi))) { return hi; }
  return min(max(a, lo), hi);
}

// ---- more math (ops/binary_extra.py) ----------------------------------------------------------------
//@op hypot
// scaled by the larger magnitude, so that neither overflow nor underflow of the squares changes the result
fn op(a: C, b: C) -> R {
  let x = abs(a);
  let y = abs(b);
  if (is_inf(x) || is_inf(y)) { return f32_inf(); }
  if (is_nan(x) || is_nan(y)) { return f32_nan(); }
  let m = max(x, y);
  if (m == 0.0f) { return 0.0f; }
  let s = div_f(min(x, y), m);  // GPUs divide by multiplying with 1/m, which flushes for m > 2^126
  return m * sqrt(1.0f + s * s);
}

//@op logaddexp
fn op(a: C, b: C) -> R {
  if (is_nan(a) || is_nan(b)) { return f32_nan(); }
  if (is_inf(a) && a == b) { return a; }
  let m = max(a, b);
  return m + log1p_f(exp(-abs(a - b)));
}

//@op logaddexp2
fn op(a: C, b: C) -> R {
  if (is_nan(a) || is_nan(b)) { return f32_nan(); }
  if (is_inf(a) && a == b) { return a; }
  let m = max(a, b);
  return m + log1p_f(exp2(-abs(a - b))) * 1.4426950408889634f;
}

//@op copysign
fn op(a: C, b: C) -> R { return copysign_f(a, b); }

//@op nextafter
// the next float32 after a in the direction of b (bit arithmetic, as C's nextafterf)
fn op(a: C, b: C) -> R {
  if (is_nan(a) || is_nan(b)) { return f32_nan(); }
  if (a == b) { return b; }
  if (a == 0.0f) { return bitcast<f32>(select(1u, 0x80000001u, b < 0.0f)); }
  let u = bitcast<u32>(a);
  let away = (a < b) == (a > 0.0f);
  return bitcast<f32>(select(u - 1u, u + 1u, away));
}

//@op xlogy
// 0 where a is 0 (unless b is NaN)
fn op(a: C, b: C) -> R {
  if (is_nan(b)) { return b; }
  if (a == 0.0f) { return 0.0f; }
  return a * log_f(b);
}

//@op bitwise_and
fn op(a: C, b: C) -> R { return a & b; }

//@op bitwise_or
fn op(a: C, b: C) -> R { return a | b; }

//@op bitwise_xor
fn op(a: C, b: C) -> R { return a ^ b; }

//@op bitwise_left_shift
// int32 wraps; shifts below 0 or past 31 give 0, as in PyTorch
fn op(a: C, b: C) -> R {
  if (b < C(0) || b > C(31)) { return R(0); }
  return R(a << u32(b));
}

//@op bitwise_right_shift
// arithmetic: shifts below 0 or past 31 give 0 or -1 (the sign), as in PyTorch
fn op(a: C, b: C) -> R {
  if (b < C(0) || b > C(31)) { return R(a >> 31u); }
  return R(a >> u32(b));
}

//@op gcd
fn op(a: C, b: C) -> R {
  var x = abs(a);
  var y = abs(b);
  loop {
    if (y == C(0)) { break; }
    let t = x % y;
    x = y;
    y = t;
  }
  return x;
}
