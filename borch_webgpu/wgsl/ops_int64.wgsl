// int64 ops that can leave int32's range (an int64 tensor is held as int32): each computes the exact
// int64 result in two 32-bit words, W = vec2<u32>(low, high), wrapping at 2**64 as PyTorch's int64
// does, and stores its low word when it fits; when it does not, the first such element records
// (error code, two words naming the values) in the error buffer `err`, and the runtime raises
// OverflowError naming the op and the values (device/int64_range.py, device/gpu_errors.py).
// Sums and products of reductions and scans carry W as their state, so a result that fits is
// exact even when partial sums did not. The skeleton that includes this file binds `err` and puts
// the dispatch's error code in uniform word 60 (61: a zero divisor, `zero_div`). int32 tensors use
// the plain blocks (they wrap).
// Blocks: elementwise (`fn op`), reductions (`sum`, `prod`: S, r_init...), scans (`sum_i`, `prod_i`).

fn w_of(x: i32) -> vec2<u32> { return vec2<u32>(bitcast<u32>(x), select(0u, 0xffffffffu, x < 0)); }
fn w_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}
fn w_neg(a: vec2<u32>) -> vec2<u32> { return w_add(~a, vec2<u32>(1u, 0u)); }
// the full 64-bit product of two u32, through 16-bit halves
fn mul_wide(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((p00 & 0xffffu) | (mid << 16u), a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}
// product modulo 2**64 (two's complement: the same bits for signed operands)
fn w_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let p = mul_wide(a.x, b.x);
  return vec2<u32>(p.x, p.y + a.x * b.y + a.y * b.x);
}
fn w_fits(a: vec2<u32>) -> bool { return a.y == select(0u, 0xffffffffu, bitcast<i32>(a.x) < 0); }
fn w_ipow(a: i32, n: i32) -> vec2<u32> {
  if (n < 0) { return w_of(ipow(a, n)); }
  var r = vec2<u32>(1u, 0u);
  var base = w_of(a);
  var e = n;
  loop {
    if ((e & 1) == 1) { r = w_mul(r, base); }
    e = e >> 1u;
    if (e == 0) { break; }
    base = w_mul(base, base);
  }
  return r;
}

// the first failure of a dispatch: its code and two words, at word `at` of the error buffer (a weak
// exchange may fail spuriously: retried until some failure holds those words)
fn record_at(at: u32, code: u32, a: u32, b: u32) {
  loop {
    let r = atomicCompareExchangeWeak(&err[at], 0u, code);
    if (r.exchanged) {
      atomicStore(&err[at + 1u], a);
      atomicStore(&err[at + 2u], b);
      break;
    }
    if (r.old_value != 0u) { break; }
  }
}
fn record(code: u32, a: u32, b: u32) { record_at(0u, code, a, b); }
// a result past int32: in the header (raised at the next read), or in the dispatch's own slot (uniform
// word 62), whose result the next read moves to the host when no later kernel used it
// (device/gpu_int64_promote.py)
fn report(a: u32, b: u32) { record_at(4u * pu(62u), pu(60u), a, b); }
// an integer division by zero, any integer type (the blocks of int64_range.ZERO_CHECKED, here and in
// ops_binary.wgsl, always bind the error buffer): the code in uniform word 61, the dividend's bits
fn zero_div(a: u32) { record(pu(61u), a, 0u); }
// r's low word; r not fitting is reported with the words a and b
fn fit(r: vec2<u32>, a: u32, b: u32) -> i32 {
  if (!w_fits(r)) { report(a, b); }
  return bitcast<i32>(r.x);
}
fn fit2(r: vec2<u32>, a: i32, b: i32) -> i32 { return fit(r, bitcast<u32>(a), bitcast<u32>(b)); }
fn fit_self(r: vec2<u32>) -> i32 { return fit(r, r.x, r.y); }
// float -> int64 held as int32: a value past int32's range (or an infinity) is reported; NaN gives 0
// as before. By bit pattern: compilers may assume no NaNs in comparisons.
fn f_to_i64(x: f32) -> i32 {
  let bits = bitcast<u32>(x);
  let mag = bits & 0x7fffffffu;
  let big = select(mag >= 0x4f000000u, mag > 0x4f000000u, (bits >> 31u) == 1u);
  if (big && mag <= 0x7f800000u) { report(bits, 0u); }
  return i32(x);
}

//@op add
fn op(a: C, b: C) -> R { return fit2(w_add(w_of(a), w_of(b)), a, b); }

//@op sub
fn op(a: C, b: C) -> R { return fit2(w_add(w_of(a), w_neg(w_of(b))), a, b); }

//@op mul
fn op(a: C, b: C) -> R { return fit2(w_mul(w_of(a), w_of(b)), a, b); }

//@op add_scaled
// a + c * b (c: add's alpha)
fn op(a: C, b: C, c: C) -> R { return fit2(w_add(w_of(a), w_mul(w_of(c), w_of(b))), a, b); }

//@op pow_i
fn op(a: C, b: C) -> R { return fit2(w_ipow(a, b), a, b); }

//@op ipow_scalar
fn op(a: C) -> R {
  let n = bitcast<i32>(u_param(0u));
  return fit2(w_ipow(a, n), a, n);
}

//@op div_trunc_i
// only -2**31 / -1 leaves the range
fn op(a: C, b: C) -> R {
  if (b == 0) { zero_div(bitcast<u32>(a)); return 0; }
  if (a == i32(-2147483648) && b == -1) { report(bitcast<u32>(a), bitcast<u32>(b)); }
  return a / b;
}

//@op div_floor_i
fn op(a: C, b: C) -> R {
  if (b == 0) { zero_div(bitcast<u32>(a)); return 0; }
  if (a == i32(-2147483648) && b == -1) { report(bitcast<u32>(a), bitcast<u32>(b)); return a; }
  let q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) { return q - 1; }
  return q;
}

//@op neg
fn op(a: C) -> R { return fit2(w_neg(w_of(a)), a, 0); }

//@op abs
fn op(a: C) -> R { return select(a, fit2(w_neg(w_of(a)), a, 0), a < 0); }

//@op square
fn op(a: C) -> R { return fit2(w_mul(w_of(a), w_of(a)), a, 0); }

//@op sum
alias S = vec2<u32>;
fn r_init() -> S { return S(0u, 0u); }
fn r_step(a: S, x: C, j: u32) -> S { return w_add(a, w_of(i32(x))); }
fn r_merge(a: S, b: S) -> S { return w_add(a, b); }
fn r_final(a: S, k: u32) -> R { return R(fit_self(a)); }

//@op prod
alias S = vec2<u32>;
fn r_init() -> S { return S(1u, 0u); }
fn r_step(a: S, x: C, j: u32) -> S { return w_mul(a, w_of(i32(x))); }
fn r_merge(a: S, b: S) -> S { return w_mul(a, b); }
fn r_final(a: S, k: u32) -> R { return R(fit_self(a)); }

//@op sum_i
alias S = vec2<u32>;
fn s_zero() -> S { return S(0u, 0u); }
fn s_of(x: C) -> S { return w_of(i32(x)); }
fn s_add(a: S, b: S) -> S { return w_add(a, b); }
fn s_out(a: S) -> R { return R(fit_self(a)); }

//@op prod_i
alias S = vec2<u32>;
fn s_zero() -> S { return S(1u, 0u); }
fn s_of(x: C) -> S { return w_of(i32(x)); }
fn s_add(a: S, b: S) -> S { return w_mul(a, b); }
fn s_out(a: S) -> R { return R(fit_self(a)); }
