# A small convolutional network learns handwritten digits (MNIST).
import time

import borch_webgpu as torch
from borch_webgpu import nn
from borch_webgpu.utils.data import DataLoader, TensorDataset
from borch_webgpu.vision import datasets

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"   # cuda: WebGPU

train = datasets.MNIST("data", train=True, download=True)
test = datasets.MNIST("data", train=False, download=True)

# (N, 28, 28) uint8 -> (N, 1, 28, 28) float in [0, 1]
x_train = (train.data.float() / 255.0).unsqueeze(1)
loader = DataLoader(TensorDataset(x_train, train.targets), batch_size=32,
                    shuffle=True)
x_test = (test.data.float() / 255.0).unsqueeze(1).to(device)
y_test = test.targets.to(device)

# 28 x 28 -> 14 x 14 (a stride-2 convolution) -> 7 x 7 (max pooling)
model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(8, 16, kernel_size=3, padding=1),
    nn.ReLU(),
    nn.Flatten(),
    nn.Linear(16 * 7 * 7, 10),
).to(device)
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss()


def test_accuracy():
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(y_test), 500):
            predicted = model(x_test[i:i + 500]).argmax(dim=1)
            correct += (predicted == y_test[i:i + 500]).sum().item()
    model.train()
    return correct / len(y_test)


STEPS = 100
start = time.perf_counter()
step, acc = 0, 0.0
while step < STEPS:
    for images, targets in loader:
        images, targets = images.to(device), targets.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(images), targets)
        loss.backward()
        optimizer.step()
        step += 1
        torch.log("loss", loss)
        if step % 50 == 0:
            acc = test_accuracy()
            torch.log("test accuracy", acc, step=step)
            print(f"step {step}: loss {loss.item():.4f}, "
                  f"test accuracy {acc:.1%}")
        if step == STEPS:
            break

seconds = time.perf_counter() - start
print(f"done: {STEPS} steps in {seconds:.1f} s, test accuracy {acc:.1%}")
