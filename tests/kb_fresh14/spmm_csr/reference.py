import torch
import torch.nn as nn

class Model(nn.Module):
    """Sparse (CSR) times dense: A (rows, cols) given as crow_indices (rows + 1,) int64, col_indices (nnz,)
    int64 and values (nnz,) float32, times D (cols, feats) float32 -> (rows, feats) float32."""
    def __init__(self):
        super().__init__()
    def forward(self, crow: torch.Tensor, col: torch.Tensor, val: torch.Tensor, D: torch.Tensor) -> torch.Tensor:
        counts = crow[1:] - crow[:-1]
        row = torch.repeat_interleave(torch.arange(counts.numel(), device=D.device), counts)
        out = torch.zeros(counts.numel(), D.shape[1], device=D.device, dtype=D.dtype)
        return out.index_add_(0, row, val[:, None] * D[col])

rows = 32768
cols = 32768
feats = 64
max_per_row = 64

def get_inputs():
    counts = torch.randint(0, max_per_row + 1, (rows,))
    crow = torch.zeros(rows + 1, dtype=torch.int64)
    crow[1:] = torch.cumsum(counts, 0)
    nnz = int(crow[-1])
    col = torch.randint(0, cols, (nnz,))
    return [crow, col, torch.randn(nnz), torch.randn(cols, feats)]

def get_init_inputs():
    return []
