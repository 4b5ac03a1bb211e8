"""Candidate classifiers: a deeper CNN that keeps a 24x24 feature map for the strokes (shipped), the same
layers with fewer channels (``compact``, for the speed target), the first
version's wider 5x5-stem CNN, a plain tiny CNN and a MobileNet-like separable net.

Both read (N, 3, H, W) crops scaled to [0, 1] and start by standardising each crop's brightness and
contrast over all its pixels and channels together (colour ratios, which tell red from black, are
kept; exposure and the camera's gain are not). Both end in global average pooling, so the
same weights read crops of any size, and a temperature that ``calibrate`` sets after training.
"""

from __future__ import annotations

import torch
from torch import nn

ARCHITECTURES = ("deep", "compact", "wide", "plain", "separable")
# channels of the four stages of the stroke-keeping net; compact has about 0.6 of deep's, 1/3.5 of the work
STROKE_CHANNELS = {"deep": (32, 48, 96, 160), "compact": (16, 24, 48, 96)}


class CropStandardise(nn.Module):
    """Per crop: subtract the mean and divide by the standard deviation over (C, H, W)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        var = ((x - mean) ** 2).mean(dim=(1, 2, 3), keepdim=True)
        return (x - mean) / torch.sqrt(var + 1e-4)


def conv_bn(cin: int, cout: int, stride: int = 1, groups: int = 1, kernel: int = 3) -> nn.Sequential:
    """Conv, batch norm, ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


def separable(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    """Depthwise 3x3 then pointwise 1x1 (MobileNet v1 block)."""
    return nn.Sequential(conv_bn(cin, cin, stride, groups=cin), conv_bn(cin, cout, kernel=1))


class PieceNet(nn.Module):
    """Features -> global average pool -> dropout -> linear logits; ``temperature`` divides the logits."""

    temperature: torch.Tensor

    def __init__(self, arch: str, classes: int, width: int = 1) -> None:
        super().__init__()
        if arch in STROKE_CHANNELS:
            c = [n * width for n in STROKE_CHANNELS[arch]]
            self.features = nn.Sequential(
                conv_bn(3, c[0], 2, kernel=5),
                conv_bn(c[0], c[1]),
                nn.MaxPool2d(2, ceil_mode=True),
                conv_bn(c[1], c[2]),
                conv_bn(c[2], c[2]),
                nn.MaxPool2d(2, ceil_mode=True),
                conv_bn(c[2], c[3]),
                conv_bn(c[3], c[3], kernel=1),
            )
        elif arch == "separable":
            c = [16 * width, 32 * width, 64 * width, 128 * width]
            self.features = nn.Sequential(
                conv_bn(3, c[0], 2),
                separable(c[0], c[1], 2),
                separable(c[1], c[2]),
                separable(c[2], c[2]),
                separable(c[2], c[3], 2),
                separable(c[3], c[3]),
            )
        elif arch == "wide":
            c = [32 * width, 48 * width, 64 * width, 128 * width]
            self.features = nn.Sequential(
                conv_bn(3, c[0], 2, kernel=5),
                conv_bn(c[0], c[1], 2),
                conv_bn(c[1], c[2]),
                nn.MaxPool2d(2, ceil_mode=True),
                conv_bn(c[2], c[3]),
            )
        elif arch == "plain":
            c = [16 * width, 32 * width, 40 * width, 80 * width, 128 * width]
            self.features = nn.Sequential(
                conv_bn(3, c[0], 2),
                conv_bn(c[0], c[1], 2),
                conv_bn(c[1], c[2]),
                nn.MaxPool2d(2, ceil_mode=True),
                conv_bn(c[2], c[3]),
                conv_bn(c[3], c[4], kernel=1),
            )
        else:
            raise ValueError(f"architecture must be one of {ARCHITECTURES}, not {arch!r}")
        self.arch = arch
        self.norm = CropStandardise()
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(c[-1], classes)
        self.register_buffer("temperature", torch.ones(()))

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        """Uncalibrated class scores."""
        f = self.features(self.norm(x)).mean(dim=(2, 3))
        return self.head(self.drop(f))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Calibrated class probabilities (softmax of logits / temperature)."""
        return torch.softmax(self.logits(x) / self.temperature, dim=1)


def count_params(model: nn.Module) -> int:
    """Number of trainable parameters."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
