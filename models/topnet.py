"""The cube-top detector's network (torch; training only).

A small encoder down to 1/32 of the input, with dilated depthwise blocks so that one output
cell sees a whole large face, and a decoder back up to 1/4 that adds each level's own
detail (a feature pyramid), where one head answers ``models.tops.CHANNELS`` values a cell.
"""

from __future__ import annotations

import torch
from torch import nn

from vision.topshape import CHANNELS, HEAT


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()
    )


class _Separable(nn.Module):
    """A depthwise 3x3 (dilated) and a pointwise 1x1 convolution, with a residual path."""

    def __init__(self, channels: int, dilation: int = 1) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, channels, 3, 1, dilation, dilation, groups=channels, bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 1, bias=False),
            nn.BatchNorm2d(channels),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.body(x))


def _level(cin: int, cout: int, dilations: tuple[int, ...]) -> nn.Sequential:
    return nn.Sequential(_conv(cin, cout, 2), *(_Separable(cout, d) for d in dilations))


class TopNet(nn.Module):
    """Input: (N, 3, H, W) BGR in 0..1, H and W multiples of 32. Output: (N, CHANNELS, H/4,
    W/4), the heat already squashed to 0..1.

    Each photo is normalised by its own mean colour and spread first, so that exposure and
    white balance matter less.
    """

    def __init__(self, widths: tuple[int, ...] = (12, 16, 32, 48, 64)) -> None:
        super().__init__()
        a, b, c, d, e = widths
        self.stem = nn.Sequential(_conv(3, a, 2), _conv(a, b, 2), _Separable(b))
        self.down8 = _level(b, c, (1, 2))
        self.down16 = _level(c, d, (1, 2))
        self.down32 = _level(d, e, (1, 2, 4))
        self.lateral16 = nn.Conv2d(d, d, 1)
        self.lateral8 = nn.Conv2d(c, c, 1)
        self.lateral4 = nn.Conv2d(b, b, 1)
        self.up16 = nn.Sequential(nn.Conv2d(e, d, 1), nn.Upsample(scale_factor=2))
        self.up8 = nn.Sequential(nn.Conv2d(d, c, 1), nn.Upsample(scale_factor=2))
        self.up4 = nn.Sequential(nn.Conv2d(c, b, 1), nn.Upsample(scale_factor=2))
        self.mix16, self.mix8, self.mix4 = _Separable(d, 2), _Separable(c, 2), _Separable(b)
        answer = nn.Conv2d(b, CHANNELS, 1)
        self.head = nn.Sequential(_conv(b, b), answer)
        # Start with few faces believed anywhere (the focal loss's usual prior).
        bias = answer.bias
        assert bias is not None
        with torch.no_grad():
            bias.zero_()
            bias[HEAT] = -4.0

    def raw(self, x: torch.Tensor) -> torch.Tensor:
        """The head's output with the heat as a logit (what the loss wants)."""
        mean = x.mean(dim=(2, 3), keepdim=True)
        spread = x.std(dim=(1, 2, 3), keepdim=True)
        x4 = self.stem((x - mean) / (spread + 0.02))
        x8 = self.down8(x4)
        x16 = self.down16(x8)
        x32 = self.down32(x16)
        y16 = self.mix16(self.up16(x32) + self.lateral16(x16))
        y8 = self.mix8(self.up8(y16) + self.lateral8(x8))
        y4 = self.mix4(self.up4(y8) + self.lateral4(x4))
        out: torch.Tensor = self.head(y4)
        return out

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.raw(x)
        return torch.cat([torch.sigmoid(out[:, HEAT : HEAT + 1]), out[:, HEAT + 1 :]], dim=1)
