// Reductions. Each //@op block defines the running state S and
// r_init() -> S, r_step(acc, x: C, j) -> S, r_merge(a, b) -> S, r_final(acc, K) -> R.

//@op sum
alias S = C;
fn r_init() -> S { return S(0); }
fn r_step(a: S, x: C, j: u32) -> S { return a + x; }
fn r_merge(a: S, b: S) -> S { return a + b; }
fn r_final(a: S, k: u32) -> R { return R(a); }
