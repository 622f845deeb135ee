# Tensors: PyTorch's tensor API, computed on your GPU through WebGPU.
import borch_webgpu as torch

print("default device:", torch.get_default_device())

# creation
x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
print("x =", x)
print("zeros:", torch.zeros(2, 3), sep="\n")
print("linspace:", torch.linspace(0, 1, 5))

# elementwise math and broadcasting: (3, 4) with (4,)
scale = torch.tensor([1.0, 10.0, 100.0, 1000.0])
print("x * scale =", x * scale)
print("exp(-x / 4) =", torch.exp(-x / 4))

# reductions
print("sum:", x.sum().item(), " row means:", x.mean(dim=1).tolist())
print("column maxima:", x.max(dim=0).values)

# views and indexing
print("x.T:", x.T.shape, " row 1:", x[1], " last column:", x[:, -1])
print("x[x > 6]:", x[x > 6])
x[0, :] = -1.0
print("after x[0, :] = -1:", x, sep="\n")

# matrix multiplication
a = torch.randn(64, 32)
b = torch.randn(32, 16)
c = a @ b
print("a @ b:", c.shape, c.dtype, c.device)

# A small algorithm: the largest eigenvalue of a symmetric matrix by power
# iteration. torch.log reports each residual; the playground plots it.
torch.manual_seed(0)
m = torch.randn(48, 48)
sym = m @ m.T / 48
v = torch.randn(48)
v = v / v.norm()
for step in range(40):
    w = sym @ v
    eigenvalue = torch.dot(v, w)             # the Rayleigh quotient
    residual = (w - eigenvalue * v).norm()
    torch.log("residual", residual)
    v = w / w.norm()
print(f"largest eigenvalue: {eigenvalue.item():.4f}")
print(f"check: |A v - lambda v| = {residual.item():.5f}")
print("done")
