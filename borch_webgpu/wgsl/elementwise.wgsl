// Elementwise skeleton. Up to three operands, each a strided view of a storage buffer
// (broadcast dims have stride 0), a contiguous run of one, or a Python scalar carried in the
// uniform block; the result is written contiguously from an element offset.
// borch_webgpu/device/kernels.py fills the double-brace slots; the op itself is a function `op`
// taken from one of the ops_*.wgsl files.
//
// Uniform words: 0 n, 1 rank, 2 out offset, 3..5 operand offsets, 6..8 scalar bits,
// 9..11 op parameters (pf), 12..23 shape (outermost first), 24..35 / 36..47 / 48..59 operand strides.
// A strided output (writes into a view) uses operand slot 2: offset word 5, strides 48..59.
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 16>;
fn pu(i: u32) -> u32 { return P[i >> 2u][i & 3u]; }
fn pf(i: u32) -> f32 { return bitcast<f32>(pu(i)); }

alias C = {{C}};
alias R = {{R}};

@group(0) @binding(1) var<storage, read_write> out: array<{{RS}}>;
{{BUFFERS}}

fn strided(i: u32, k: u32) -> u32 {
  var rem = i;
  var idx = pu(3u + k);
  var d = pu(1u);
  loop {
    if (d == 0u) { break; }
    d -= 1u;
    let size = pu(12u + d);
    idx += (rem % size) * pu(24u + 12u * k + d);
    rem = rem / size;
  }
  return idx;
}

{{LOADS}}

{{COMMON}}

{{OP}}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * nwg.x + wg.x) * 256u + li;
  if (i >= pu(0u)) { return; }
  out[{{OUT_INDEX}}] = {{STORE}};
}
