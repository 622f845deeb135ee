// Elementwise skeleton. Up to three operands, each a strided view of a storage buffer
// (broadcast dims have stride 0), a contiguous run of one, or a Python scalar carried in the
// uniform block; the result is written contiguously from an element offset.
// borch_webgpu/device/kernels.py fills the double-brace slots; the op itself is a function `op`
// taken from one of the ops_*.wgsl files.
//
// The uniform block is device/layouts.py's EW: u_numel(), u_rank(), u_out_offset(), u_offset(k),
// u_scalar(k), u_param(j), u_shape(d), u_stride(k, d). A strided output (writes into a view) uses
// operand slot 2: u_offset(2u), u_stride(2u, d).
{{UNIFORMS}}
alias C = {{C}};
alias R = {{R}};

@group(0) @binding(1) var<storage, read_write> out: array<{{RS}}>;
{{BUFFERS}}

fn strided(i: u32, k: u32) -> u32 {
  var rem = i;
  var idx = u_offset(k);
  var d = u_rank();
  loop {
    if (d == 0u) { break; }
    d -= 1u;
    let size = u_shape(d);
    idx += (rem % size) * u_stride(k, d);
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
  if (i >= u_numel()) { return; }
  out[{{OUT_INDEX}}] = {{STORE}};
}
