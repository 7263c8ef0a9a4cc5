import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """Bilinear 2x upsampling, align_corners=False: (N, C, H, W) -> (N, C, 2H, 2W)."""
    def __init__(self):
        super().__init__()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)

batch_size = 16
channels = 64
height = 128
width = 128

def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]

def get_init_inputs():
    return []
