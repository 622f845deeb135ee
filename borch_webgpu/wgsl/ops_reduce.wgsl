// Reductions. Each //@op block defines the running state S and
// r_init() -> S, r_step(acc, x: C, j) -> S, r_merge(a, b) -> S, r_final(acc, K) -> R.
// Op scalars are read with u_param(0u)...; c_lowest()/c_highest() are C's extremes.

//@op sum
alias S = C;
fn r_init() -> S { return S(0); }
fn r_step(a: S, x: C, j: u32) -> S { return a + x; }
fn r_merge(a: S, b: S) -> S { return a + b; }
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op mean
alias S = C;
fn r_init() -> S { return S(0); }
fn r_step(a: S, x: C, j: u32) -> S { return a + x; }
fn r_merge(a: S, b: S) -> S { return a + b; }
fn r_final(a: S, k: u32) -> R { return R(a / f32(k)); }

//@op prod
alias S = C;
fn r_init() -> S { return S(1); }
fn r_step(a: S, x: C, j: u32) -> S { return a * x; }
fn r_merge(a: S, b: S) -> S { return a * b; }
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op amax
alias S = C;
fn r_init() -> S { return c_lowest(); }
fn r_step(a: S, x: C, j: u32) -> S { return r_merge(a, x); }
fn r_merge(a: S, b: S) -> S {
  if (is_nan(f32(a))) { return a; }
  if (is_nan(f32(b)) || b > a) { return b; }
  return a;
}
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op amin
alias S = C;
fn r_init() -> S { return c_highest(); }
fn r_step(a: S, x: C, j: u32) -> S { return r_merge(a, x); }
fn r_merge(a: S, b: S) -> S {
  if (is_nan(f32(a))) { return a; }
  if (is_nan(f32(b)) || b < a) { return b; }
  return a;
}
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op argmax
struct S { v: C, i: u32 }
fn r_init() -> S { return S(c_lowest(), 0xffffffffu); }
fn r_step(a: S, x: C, j: u32) -> S { return r_merge(a, S(x, j)); }
fn r_merge(a: S, b: S) -> S {
  if (b.i == 0xffffffffu) { return a; }
  if (a.i == 0xffffffffu) { return b; }
  let an = is_nan(f32(a.v));
  let bn = is_nan(f32(b.v));
  if (an != bn) { if (an) { return a; } return b; }
  if (an || a.v == b.v) { if (a.i < b.i) { return a; } return b; }
  if (b.v > a.v) { return b; }
  return a;
}
fn r_final(a: S, k: u32) -> R { return R(select(a.i, 0u, a.i == 0xffffffffu)); }

//@op argmin
struct S { v: C, i: u32 }
fn r_init() -> S { return S(c_highest(), 0xffffffffu); }
fn r_step(a: S, x: C, j: u32) -> S { return r_merge(a, S(x, j)); }
fn r_merge(a: S, b: S) -> S {
  if (b.i == 0xffffffffu) { return a; }
  if (a.i == 0xffffffffu) { return b; }
  let an = is_nan(f32(a.v));
  let bn = is_nan(f32(b.v));
  if (an != bn) { if (an) { return a; } return b; }
  if (an || a.v == b.v) { if (a.i < b.i) { return a; } return b; }
  if (b.v < a.v) { return b; }
  return a;
}
fn r_final(a: S, k: u32) -> R { return R(select(a.i, 0u, a.i == 0xffffffffu)); }

//@op all
alias S = u32;
fn r_init() -> S { return 1u; }
fn r_step(a: S, x: C, j: u32) -> S { return a & u32(nonzero(x)); }
fn r_merge(a: S, b: S) -> S { return a & b; }
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op any
alias S = u32;
fn r_init() -> S { return 0u; }
fn r_step(a: S, x: C, j: u32) -> S { return a | u32(nonzero(x)); }
fn r_merge(a: S, b: S) -> S { return a | b; }
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op var
// Welford's running (count, mean, M2), merged with Chan's formula; u_param(0u) is the correction
struct S { n: f32, mean: f32, m2: f32 }
fn r_init() -> S { return S(0.0f, 0.0f, 0.0f); }
fn r_step(a: S, x: C, j: u32) -> S {
  let n = a.n + 1.0f;
  let d = x - a.mean;
  let mean = a.mean + d / n;
  return S(n, mean, a.m2 + d * (x - mean));
}
fn r_merge(a: S, b: S) -> S {
  if (a.n == 0.0f) { return b; }
  if (b.n == 0.0f) { return a; }
  let n = a.n + b.n;
  let d = b.mean - a.mean;
  return S(n, a.mean + d * (b.n / n), a.m2 + b.m2 + d * d * (a.n * b.n / n));
}
fn r_final(a: S, k: u32) -> R {
  let dof = a.n - u_param(0u);
  if (dof <= 0.0f) { return select(f32_nan(), f32_inf(), a.m2 > 0.0f); }
  return R(a.m2 / dof);
}

//@op std
struct S { n: f32, mean: f32, m2: f32 }
fn r_init() -> S { return S(0.0f, 0.0f, 0.0f); }
fn r_step(a: S, x: C, j: u32) -> S {
  let n = a.n + 1.0f;
  let d = x - a.mean;
  let mean = a.mean + d / n;
  return S(n, mean, a.m2 + d * (x - mean));
}
fn r_merge(a: S, b: S) -> S {
  if (a.n == 0.0f) { return b; }
  if (b.n == 0.0f) { return a; }
  let n = a.n + b.n;
  let d = b.mean - a.mean;
  return S(n, a.mean + d * (b.n / n), a.m2 + b.m2 + d * d * (a.n * b.n / n));
}
fn r_final(a: S, k: u32) -> R {
  let dof = a.n - u_param(0u);
  if (dof <= 0.0f) { return select(f32_nan(), f32_inf(), a.m2 > 0.0f); }
  return R(sqrt(a.m2 / dof));
}

//@op logsumexp
struct S { m: f32, s: f32 }
fn r_init() -> S { return S(-f32_inf(), 0.0f); }
fn r_step(a: S, x: C, j: u32) -> S { return r_merge(a, S(x, 1.0f)); }
fn r_merge(a: S, b: S) -> S {
  if (is_nan(a.m) || is_nan(b.m)) { return S(f32_nan(), 1.0f); }
  if (b.s == 0.0f) { return a; }
  if (a.s == 0.0f) { return b; }
  if (a.m == f32_inf() || b.m == f32_inf()) { return S(f32_inf(), 1.0f); }
  if (a.m >= b.m) { return S(a.m, a.s + b.s * exp(b.m - a.m)); }
  return S(b.m, b.s + a.s * exp(a.m - b.m));
}
fn r_final(a: S, k: u32) -> R {
  if (a.s == 0.0f) { return -f32_inf(); }
  if (is_inf(a.m)) { return a.m; }
  return R(a.m + log(a.s));
}

//@op norm2
alias S = C;
fn r_init() -> S { return S(0); }
fn r_step(a: S, x: C, j: u32) -> S { return a + x * x; }
fn r_merge(a: S, b: S) -> S { return a + b; }
fn r_final(a: S, k: u32) -> R { return R(sqrt(a)); }

//@op norm1
alias S = C;
fn r_init() -> S { return S(0); }
fn r_step(a: S, x: C, j: u32) -> S { return a + abs(x); }
fn r_merge(a: S, b: S) -> S { return a + b; }
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op norm_inf
alias S = C;
fn r_init() -> S { return S(0); }
fn r_step(a: S, x: C, j: u32) -> S { return r_merge(a, abs(x)); }
fn r_merge(a: S, b: S) -> S {
  if (is_nan(a)) { return a; }
  if (is_nan(b) || b > a) { return b; }
  return a;
}
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op norm_ninf
alias S = C;
fn r_init() -> S { return f32_inf(); }
fn r_step(a: S, x: C, j: u32) -> S { return r_merge(a, abs(x)); }
fn r_merge(a: S, b: S) -> S {
  if (is_nan(a)) { return a; }
  if (is_nan(b) || b < a) { return b; }
  return a;
}
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op norm0
alias S = C;
fn r_init() -> S { return S(0); }
fn r_step(a: S, x: C, j: u32) -> S { return a + select(0.0f, 1.0f, nonzero(x)); }
fn r_merge(a: S, b: S) -> S { return a + b; }
fn r_final(a: S, k: u32) -> R { return R(a); }

//@op normp
alias S = C;
fn r_init() -> S { return S(0); }
fn r_step(a: S, x: C, j: u32) -> S { return a + pow_f(abs(x), u_param(0u)); }
fn r_merge(a: S, b: S) -> S { return a + b; }
fn r_final(a: S, k: u32) -> R { return R(pow_f(a, 1.0f / u_param(0u))); }
