// Unary elementwise ops. Each //@op block defines `fn op(a: C) -> R`.

//@op copy
fn op(a: C) -> R { return a; }
