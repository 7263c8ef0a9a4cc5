import torch
import torch.nn as nn

class Model(nn.Module):
    """Sparse matrix (CSR: row offsets, column indices, values) times a dense vector: y = A @ x."""
    def __init__(self, num_rows: int, num_cols: int):
        super().__init__()
        self.num_rows = num_rows
        self.num_cols = num_cols
    def forward(self, crow: torch.Tensor, col: torch.Tensor, values: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        a = torch.sparse_csr_tensor(crow, col, values, (self.num_rows, self.num_cols))
        return torch.mv(a, x)

num_rows = 1 << 17
num_cols = 1 << 17
nnz = 32 * num_rows

def get_inputs():
    # each nonzero in a uniformly random row: rows of 32 nonzeros on average, unevenly (0 to about 60)
    rows = torch.sort(torch.randint(0, num_rows, (nnz,), dtype=torch.int64)).values
    crow = torch.searchsorted(rows, torch.arange(num_rows + 1, dtype=torch.int64))
    col = torch.randint(0, num_cols, (nnz,), dtype=torch.int64)
    values = torch.randn(nnz)
    x = torch.randn(num_cols)
    return [crow, col, values, x]

def get_init_inputs():
    return [num_rows, num_cols]
