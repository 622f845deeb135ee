// int64 matrix products (int64 is held as int32 on the device): out[b, m, n] = sum over k of
// a[b, m, k] * b[b, k, n], each product and the running sum exact in two 32-bit words (wrapping at
// 2**64 as PyTorch's int64 does), so a result that fits int32 is PyTorch's even when products or
// partial sums did not fit. A result that does not fit is recorded in the error buffer `err` (its low
// and high words, under the error code in uniform word 60): OverflowError naming the op and the value
// (device/int64_range.py). One thread per output element.
// Uniform words: 0 batch, 1 M, 2 N, 3 K, 4 a offset, 5 b offset, 6..8 a strides (batch, m, k),
// 9..11 b strides (batch, k, n), 60 error code. Strides are u32 (a negative stride wraps, as elsewhere).
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

alias C = i32;
{{COMMON}}

@group(0) @binding(1) var<storage, read_write> out: array<i32>;
@group(0) @binding(2) var<storage, read> A: array<i32>;
@group(0) @binding(3) var<storage, read> B: array<i32>;
{{ERR}}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  let M = pu(1u);
  let N = pu(2u);
  if (i >= pu(0u) * M * N) { return; }
  let n = i % N;
  let m = (i / N) % M;
  let bt = i / (M * N);
  var pa = pu(4u) + bt * pu(6u) + m * pu(7u);
  var pb = pu(5u) + bt * pu(9u) + n * pu(11u);
  var acc = vec2<u32>(0u, 0u);
  for (var k = 0u; k < pu(3u); k++) {
    acc = w_add(acc, w_mul(w_of(A[pa]), w_of(B[pb])));
    pa += pu(8u);
    pb += pu(10u);
  }
  out[i] = fit_self(acc);
}
