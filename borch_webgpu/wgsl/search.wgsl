// Binary search (searchsorted, bucketize): one thread per value, over its row of the sorted
// sequence, taking PyTorch's steps exactly: left moves right while !(b >= v), right while !(b > v),
// so a NaN on either side moves the search right, as on PyTorch's CPU.
// Uniform words: 0 n values, 1 m row length, 2 values per row (n when the sequence is one row),
// 3 right (1) or left (0), 4 sequence offset, 5 values offset. Both inputs are contiguous.
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

alias T = {{T}};

{{COMMON}}

@group(0) @binding(1) var<storage, read_write> out: array<i32>;
@group(0) @binding(2) var<storage, read> seq: array<T>;
@group(0) @binding(3) var<storage, read> vals: array<T>;

//@op searchsorted
// comparisons with a NaN are false: tested by bit pattern (compilers may assume floats are not NaN)
fn goes_right(b: T, v: T) -> bool {
  if ({{NAN}}) { return true; }
  if (pu(3u) == 1u) { return !(b > v); }
  return !(b >= v);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let m = pu(1u);
  let base = pu(4u) + (i / pu(2u)) * m;
  let v = vals[pu(5u) + i];
  var lo = 0u;
  var hi = m;
  loop {
    if (lo >= hi) { break; }
    let mid = lo + (hi - lo) / 2u;
    if (goes_right(seq[base + mid], v)) { lo = mid + 1u; } else { hi = mid; }
  }
  out[i] = i32(lo);
}
