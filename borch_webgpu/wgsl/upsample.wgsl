// Resampling of the last two dims of (N, C, H, W) (1-D: H = 1), nearest or (bi)linear, forward and
// backward, one thread per output element (forward) or input element (backward). The input and the
// upstream gradient are read through their strides; outputs are new contiguous memory.
// Source positions and weights come from a table computed on the host exactly as PyTorch's kernels
// compute them in float32 (ops/upsample.py): for output row o, tab[4o..4o+3] = (i0, i1, l0, l1),
// then the same for the columns; then for input row i, (first, last) output row that reads it, and
// the same for the columns (indices held as exact floats). Modes (MODE, a pipeline constant):
//   0 nearest   out = x[i0h, i0w]
//   1 linear    out = x[.., i0w] * l0w + x[.., i1w] * l1w along W only (1-D)
//   2 bilinear  out = (x[i0h, i0w] * l0w + x[i0h, i1w] * l1w) * l0h + (x[i1h, i0w] * l0w + x[i1h, i1w] * l1w) * l1h
// (PyTorch's CPU order). The backward adds, for each output in raster order, each of its terms that
// lands on this input element, with the weight products in PyTorch's order: the same floats summed
// in the same order as PyTorch's scatter, without atomics.
//
// Uniform words: 0 element count, 1 C, 2 H, 3 W, 4 OH, 5 OW, 6 x/dy offset, 7..10 x/dy strides
// (n, c, h, w).
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }

alias S = {{S}};
const MODE = {{MODE}}u;

@group(0) @binding(1) var<storage, read_write> out: array<S>;
@group(0) @binding(2) var<storage, read> src: array<S>;
@group(0) @binding(3) var<storage, read> tab: array<f32>;

fn at(p: u32, h: u32, w: u32) -> u32 {
  return pu(6u) + (p / pu(1u)) * pu(7u) + (p % pu(1u)) * pu(8u) + h * pu(9u) + w * pu(10u);
}
fn v(p: u32, h: f32, w: f32) -> f32 { return f32(src[at(p, u32(h), u32(w))]); }
// (i0, i1, l0, l1) of output row o / column o
fn row(o: u32) -> vec4<f32> { return vec4<f32>(tab[4u * o], tab[4u * o + 1u], tab[4u * o + 2u], tab[4u * o + 3u]); }
fn col(o: u32) -> vec4<f32> {
  let b = 4u * (pu(4u) + o);
  return vec4<f32>(tab[b], tab[b + 1u], tab[b + 2u], tab[b + 3u]);
}

//@op fwd
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let OW = pu(5u);
  let ohw = pu(4u) * OW;
  let p = i / ohw;
  let r = row((i % ohw) / OW);
  let c = col(i % OW);
  var y: f32;
  if (MODE == 0u) {
    y = v(p, r.x, c.x);
  } else if (MODE == 1u) {
    y = v(p, r.x, c.x) * c.z + v(p, r.x, c.y) * c.w;
  } else {
    let t0 = v(p, r.x, c.x) * c.z + v(p, r.x, c.y) * c.w;
    let t1 = v(p, r.y, c.x) * c.z + v(p, r.y, c.y) * c.w;
    y = t0 * r.z + t1 * r.w;
  }
  out[i] = S(y);
}

//@op bwd
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  let W = pu(3u);
  let hw = pu(2u) * W;
  let p = i / hw;
  let ih = f32((i % hw) / W);
  let iw = f32(i % W);
  let rb = 4u * (pu(4u) + pu(5u)) + 2u * ((i % hw) / W);
  let cb = 4u * (pu(4u) + pu(5u)) + 2u * pu(2u) + 2u * (i % W);
  var acc = 0.0f;
  for (var oh = u32(tab[rb]); oh <= u32(tab[rb + 1u]); oh++) {
    let r = row(oh);
    for (var ow = u32(tab[cb]); ow <= u32(tab[cb + 1u]); ow++) {
      let c = col(ow);
      let g = f32(src[at(p, oh, ow)]);
      if (MODE == 0u) {
        acc += g;
      } else if (MODE == 1u) {
        if (c.x == iw) { acc += c.z * g; }
        if (c.y == iw) { acc += c.w * g; }
      } else {
        if (r.x == ih && c.x == iw) { acc += r.z * c.z * g; }
        if (r.x == ih && c.y == iw) { acc += r.z * c.w * g; }
        if (r.y == ih && c.x == iw) { acc += r.w * c.z * g; }
        if (r.y == ih && c.y == iw) { acc += r.w * c.w * g; }
      }
    }
  }
  out[i] = S(acc);
}
