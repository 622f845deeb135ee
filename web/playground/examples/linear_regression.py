# Linear regression: nn.Linear, a loss, an optimizer and a DataLoader.
import borch_webgpu as torch
from borch_webgpu import nn
from borch_webgpu.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"   # cuda: WebGPU

# a synthetic data set, kept on the CPU: y = 2 x1 - 3.4 x2 + 4.2 + noise
true_w = torch.tensor([2.0, -3.4], device="cpu")
true_b = 4.2
features = torch.randn(1000, 2, device="cpu")
noise = 0.01 * torch.randn(1000, device="cpu")
labels = (features @ true_w + true_b + noise).unsqueeze(1)
dataset = TensorDataset(features, labels)
loader = DataLoader(dataset, batch_size=50, shuffle=True)

model = nn.Linear(2, 1).to(device)
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(5):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        torch.log("loss", loss)
    print(f"epoch {epoch + 1}: loss {loss.item():.6f}")

w = model.weight.detach().flatten().tolist()
b = model.bias.item()
print("true:    w = [2.000, -3.400], b = 4.200")
print(f"learned: w = [{w[0]:.3f}, {w[1]:.3f}], b = {b:.3f}")
