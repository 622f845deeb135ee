# An MLP learns handwritten digits (MNIST, served by this site).
import time

import borch_webgpu as torch
from borch_webgpu import nn
from borch_webgpu.utils.data import DataLoader, TensorDataset
from borch_webgpu.vision import datasets

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"   # cuda: WebGPU

train = datasets.MNIST("data", train=True, download=True)
test = datasets.MNIST("data", train=False, download=True)
print(f"MNIST: {len(train)} training and {len(test)} test images")

# each split as two tensors, pixels scaled to [0, 1]; the DataLoader cuts
# shuffled batches from them
x_train = train.data.float() / 255.0
loader = DataLoader(TensorDataset(x_train, train.targets), batch_size=64,
                    shuffle=True)
x_test = (test.data.float() / 255.0).to(device)
y_test = test.targets.to(device)

model = nn.Sequential(
    nn.Flatten(),
    nn.Linear(28 * 28, 128),
    nn.ReLU(),
    nn.Linear(128, 10),
).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.CrossEntropyLoss()


def test_accuracy():
    model.eval()
    with torch.no_grad():
        predicted = model(x_test).argmax(dim=1)
    model.train()
    return (predicted == y_test).float().mean().item()


# torch.compile records the step's GPU work once and replays it with one call
@torch.compile
def train_step(images, targets):
    optimizer.zero_grad()
    loss = loss_fn(model(images), targets)
    loss.backward()
    optimizer.step()
    return loss


STEPS = 120
start = time.perf_counter()
step, acc, previous = 0, 0.0, None
while step < STEPS:
    for images, targets in loader:
        loss = train_step(images.to(device), targets.to(device))
        step += 1
        # plot the previous step's loss: its copy started a step ago, so reading it
        # does not wait for the step the GPU is running now
        if previous is not None:
            torch.log("loss", previous, step=step - 1)
        previous = loss.to("cpu", non_blocking=True)
        if step % 40 == 0:
            acc = test_accuracy()
            torch.log("test accuracy", acc, step=step)
            print(f"step {step}: loss {loss.item():.4f}, "
                  f"test accuracy {acc:.1%}")
        if step == STEPS:
            break

seconds = time.perf_counter() - start
print(f"done: {STEPS} steps in {seconds:.1f} s, test accuracy {acc:.1%}")
