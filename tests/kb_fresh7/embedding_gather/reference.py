import torch
import torch.nn as nn

class Model(nn.Module):
    """nn.Embedding lookup: int64 indices (B, S) into a (V, D) table, giving (B, S, D)."""
    def __init__(self, num_embeddings: int, embedding_dim: int):
        super().__init__()
        self.embedding = nn.Embedding(num_embeddings, embedding_dim)
    def forward(self, indices: torch.Tensor) -> torch.Tensor:
        return self.embedding(indices)

num_embeddings = 50000
embedding_dim = 512
batch_size = 64
seq_len = 1024

def get_inputs():
    return [torch.randint(0, num_embeddings, (batch_size, seq_len))]

def get_init_inputs():
    return [num_embeddings, embedding_dim]
