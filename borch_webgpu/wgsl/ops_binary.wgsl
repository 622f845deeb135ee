// Binary elementwise ops. Each //@op block defines `fn op(a: C, b: C) -> R` where C is the
// compute type (operands are cast to it on load) and R the stored result type.

//@op add
fn op(a: C, b: C) -> R { return a + b; }

//@op sub
fn op(a: C, b: C) -> R { return a - b; }

//@op mul
fn op(a: C, b: C) -> R { return a * b; }

//@op div
fn op(a: C, b: C) -> R { return a / b; }
