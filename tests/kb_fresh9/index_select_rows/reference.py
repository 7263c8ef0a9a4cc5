import torch
import torch.nn as nn

class Model(nn.Module):
    """Gather rows of a table by an int64 index vector (rows may repeat): table.index_select(0, idx)."""
    def __init__(self):
        super().__init__()
    def forward(self, table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
        return table.index_select(0, idx)

table_rows = 100000
row_width = 768
num_indices = 65536

def get_inputs():
    return [torch.randn(table_rows, row_width), torch.randint(0, table_rows, (num_indices,), dtype=torch.int64)]

def get_init_inputs():
    return []
