import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    """Sum of the embedding rows of each bag: bag b holds indices[offsets[b]:offsets[b + 1]] (the last bag runs
    to the end), out[b] = sum of weight[i] over them (empty bags give zeros)."""
    def __init__(self):
        super().__init__()
    def forward(self, indices: torch.Tensor, offsets: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        return F.embedding_bag(indices, weight, offsets, mode="sum")

num_embeddings = 100000
embedding_dim = 256
num_bags = 16384
num_indices = 64 * num_bags

def get_inputs():
    # bags start at sorted random positions: 64 indices on average, unevenly (some empty)
    offsets = torch.sort(torch.randint(0, num_indices, (num_bags,), dtype=torch.int64)).values
    offsets[0] = 0
    indices = torch.randint(0, num_embeddings, (num_indices,), dtype=torch.int64)
    return [indices, offsets, torch.randn(num_embeddings, embedding_dim)]

def get_init_inputs():
    return []
