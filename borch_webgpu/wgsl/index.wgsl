// Indexing kernels: `take` (out[c] = x[..., idx[c], ...]: gather, index_select, advanced
// indexing) and `put` (out[..., idx[c], ...] = src[c], or += for scatter_add, index_add and
// index_put with accumulate). An index outside [-size, size) is not read or written: the first
// one is recorded in the error buffer `err` under the dispatch's error code (word 7), which names
// the exception, PyTorch's message, the op and the user's line; the runtime raises it at the next
// readback or the end of the enclosing scope() (device/gpu_errors.py; like CUDA's asynchronous
// device asserts, but with the op, the line and the values).
//
// Uniform words: 0 n, 1 rank, 2 dim, 3 x/out offset, 4 idx offset, 5 size along dim, 6 src offset,
// 7 error code, 8 scalar value bits, 9 negative indices count from the end (1) or are errors (0),
// 10 hi: the error code of an int64 accumulation whose total leaves int32, 11 hi: 0 set, 1 check,
// 12..23 shape (of out for take, of src for put),
// 24..35 x/out strides, 36..47 idx strides, 48..59 src strides.
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

alias T = {{T}};

fn report(v: i32) {
  let first = atomicCompareExchangeWeak(&err[0], 0u, pu(7u));
  if (first.exchanged) {
    atomicStore(&err[1], bitcast<u32>(v));
    atomicStore(&err[2], pu(5u));
  }
}

// index of element i: (offset along the non-indexed dims of out/x, of idx, of src)
struct Off { o: u32, i: u32, s: u32 }
fn offsets(i: u32) -> Off {
  var rem = i;
  var r = Off(pu(3u), pu(4u), pu(6u));
  var d = pu(1u);
  loop {
    if (d == 0u) { break; }
    d -= 1u;
    let size = pu(12u + d);
    let c = rem % size;
    rem = rem / size;
    if (d != pu(2u)) { r.o += c * pu(24u + d); }
    r.i += c * pu(36u + d);
    r.s += c * pu(48u + d);
  }
  return r;
}

fn checked(v0: i32) -> i32 {
  var v = v0;
  let size = i32(pu(5u));
  if (v < 0 && pu(9u) == 1u) { v += size; }
  if (v < 0 || v >= size) { report(v0); return -1; }
  return v;
}

//@mode take
@group(0) @binding(1) var<storage, read_write> out: array<T>;
@group(0) @binding(2) var<storage, read> x: array<T>;
@group(0) @binding(3) var<storage, read> idx: array<i32>;
@group(0) @binding(4) var<storage, read_write> err: array<atomic<u32>>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let r = offsets(i);
  let v = checked(idx[r.i]);
  if (v < 0) { out[i] = T(0); return; }
  out[i] = x[r.o + u32(v) * pu(24u + pu(2u))];
}

//@mode put
// assignment (scatter, index_put): with repeated indices one of the writes wins, as in PyTorch
@group(0) @binding(1) var<storage, read_write> out: array<T>;
@group(0) @binding(2) var<storage, read> src: array<T>;
@group(0) @binding(3) var<storage, read> idx: array<i32>;
@group(0) @binding(4) var<storage, read_write> err: array<atomic<u32>>;

fn value(r: Off) -> T { return {{SRC}}; }

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let r = offsets(i);
  let v = checked(idx[r.i]);
  if (v < 0) { return; }
  out[r.o + u32(v) * pu(24u + pu(2u))] = value(r);
}

//@mode add_f32
// accumulation of floats: compare-and-swap on the bit pattern (WGSL has no float atomics)
@group(0) @binding(1) var<storage, read_write> out: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> src: array<T>;
@group(0) @binding(3) var<storage, read> idx: array<i32>;
@group(0) @binding(4) var<storage, read_write> err: array<atomic<u32>>;

fn value(r: Off) -> T { return {{SRC}}; }

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let r = offsets(i);
  let v = checked(idx[r.i]);
  if (v < 0) { return; }
  let at = r.o + u32(v) * pu(24u + pu(2u));
  let add = value(r);
  var old = atomicLoad(&out[at]);
  loop {
    let res = atomicCompareExchangeWeak(&out[at], old, bitcast<u32>(bitcast<f32>(old) + add));
    if (res.exchanged) { break; }
    old = res.old_value;
  }
}

//@mode add_i32
@group(0) @binding(1) var<storage, read_write> out: array<atomic<i32>>;
@group(0) @binding(2) var<storage, read> src: array<T>;
@group(0) @binding(3) var<storage, read> idx: array<i32>;
@group(0) @binding(4) var<storage, read_write> err: array<atomic<u32>>;

fn value(r: Off) -> T { return {{SRC}}; }

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let r = offsets(i);
  let v = checked(idx[r.i]);
  if (v < 0) { return; }
  atomicAdd(&out[r.o + u32(v) * pu(24u + pu(2u))], i32(value(r)));   // int32 wraps, as PyTorch's
}

//@mode add_i64
// accumulation into int64 (held as int32): exact in 64 bits whatever order the adds run in. The low
// word is the tensor's own word (atomic add, wrapping); each add knows its own carry out of it, so
// the high words (`hi`, one per word of out, set by mode hi) collect the sign extensions and carries
// exactly; mode hi then refuses a total that does not fit in int32.
@group(0) @binding(1) var<storage, read_write> out: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> src: array<T>;
@group(0) @binding(3) var<storage, read> idx: array<i32>;
@group(0) @binding(4) var<storage, read_write> err: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> hi: array<atomic<i32>>;

fn value(r: Off) -> T { return {{SRC}}; }

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let r = offsets(i);
  let v = checked(idx[r.i]);
  if (v < 0) { return; }
  let at = r.o + u32(v) * pu(24u + pu(2u));
  let add = i32(value(r));
  let old = atomicAdd(&out[at], bitcast<u32>(add));
  let carry = select(0, 1, old + bitcast<u32>(add) < old);
  let up = select(0, -1, add < 0) + carry;
  if (up != 0) { atomicAdd(&hi[at], up); }
}

//@mode hi
// word 11 = 0: hi[j] = the sign extension of out[j] (before add_i64); word 11 = 1: the 64-bit total
// (out[j], hi[j]) must fit in int32, its high word being the low word's sign extension (after it);
// for the first pu(0) words
@group(0) @binding(1) var<storage, read_write> hi: array<i32>;
@group(0) @binding(2) var<storage, read> out: array<i32>;
@group(0) @binding(3) var<storage, read> idx: array<i32>;
@group(0) @binding(4) var<storage, read_write> err: array<atomic<u32>>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let sign = select(0, -1, out[i] < 0);
  if (pu(11u) == 0u) { hi[i] = sign; return; }
  if (hi[i] != sign) {
    let first = atomicCompareExchangeWeak(&err[0], 0u, pu(10u));
    if (first.exchanged) {
      atomicStore(&err[1], bitcast<u32>(out[i]));
      atomicStore(&err[2], bitcast<u32>(hi[i]));
    }
  }
}
