# Autograd: gradients computed for you, as in PyTorch.
import math

import borch_webgpu as torch

# d/dx (x^3 + 2x) = 3x^2 + 2
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3 + 2 * x).sum()
y.backward()
print("x.grad:  ", x.grad)
print("expected:", 3 * x.detach() ** 2 + 2)

# Fit y = sin(pi x) on [-1, 1] with a cubic a + b x + c x^2 + d x^3
# (PyTorch's "tensors and autograd" example), updating weights by hand.
torch.manual_seed(0)
xs = torch.linspace(-1, 1, 2000)
ys = torch.sin(math.pi * xs)

a, b, c, d = (torch.randn((), requires_grad=True) for _ in range(4))
learning_rate = 0.5
for step in range(300):
    y_pred = a + b * xs + c * xs ** 2 + d * xs ** 3
    loss = ((y_pred - ys) ** 2).mean()
    torch.log("loss", loss)
    if step % 50 == 0:
        print(f"step {step:3d}  loss {loss.item():.5f}")

    loss.backward()              # fills a.grad, b.grad, c.grad and d.grad
    with torch.no_grad():        # the update itself is not recorded
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None

coef = [p.item() for p in (a, b, c, d)]
print("y = {:.3f} {:+.3f} x {:+.3f} x^2 {:+.3f} x^3".format(*coef))
print(f"final loss {loss.item():.5f}")
