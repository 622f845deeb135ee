// Counter-based random numbers: element i of a draw gets hash(seed, offset + i), so a result
// depends only on (seed, offset, i): the same on every device and for every launch shape.
// ops/random.py computes the same hash with numpy for the cpu device.
// Uniform words: 0 n, 1 seed, 2 offset, 3 output offset, 4 a (f32), 5 b (f32).
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }
fn pf(i: u32) -> f32 { return bitcast<f32>(pu(i)); }

@group(0) @binding(1) var<storage, read_write> out: array<{{T}}>;

fn triple32(x0: u32) -> u32 {
  var x = x0;
  x ^= x >> 17u; x *= 0xed5ad4bbu;
  x ^= x >> 11u; x *= 0xac4c1b51u;
  x ^= x >> 15u; x *= 0x31848babu;
  x ^= x >> 14u;
  return x;
}

fn draw(c: u32) -> u32 {
  let key = triple32(pu(1u) ^ 0x9e3779b9u);
  return triple32(triple32(c * 0x9e3779b9u + key) ^ key);
}

// uniform in [0, 1) with 24 random bits
fn unit(c: u32) -> f32 { return f32(draw(c) >> 8u) * 5.9604644775390625e-08f; }

//@mode uniform
// a + (b - a) * u
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  out[pu(3u) + i] = {{T}}(pf(4u) + (pf(5u) - pf(4u)) * unit(pu(2u) + i));
}

//@mode normal
// a + b * z, z standard normal by Box-Muller from counters 2i and 2i + 1
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let u1 = f32((draw(pu(2u) + 2u * i) >> 8u) + 1u) * 5.9604644775390625e-08f;
  let u2 = unit(pu(2u) + 2u * i + 1u);
  let z = sqrt(-2.0f * log(u1)) * cos(6.283185307179586f * u2);
  out[pu(3u) + i] = {{T}}(pf(4u) + pf(5u) * z);
}

//@mode randint
// low + draw % range for integers: word 4 is low (i32 bits), word 5 the range (u32)
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  out[pu(3u) + i] = {{T}}(bitcast<i32>(pu(4u)) + i32(draw(pu(2u) + i) % pu(5u)));
}
