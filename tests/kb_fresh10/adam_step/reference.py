import torch
import torch.nn as nn

class Model(nn.Module):
    """One Adam step (with L2 weight decay folded into the gradient) on a flat parameter tensor, returning the
    updated parameter; the moment tensors are inputs and are not modified."""
    def __init__(self, lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, step: int):
        super().__init__()
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.weight_decay, self.step = weight_decay, step
    def forward(self, param: torch.Tensor, grad: torch.Tensor, exp_avg: torch.Tensor,
                exp_avg_sq: torch.Tensor) -> torch.Tensor:
        g = grad + self.weight_decay * param
        m = self.beta1 * exp_avg + (1 - self.beta1) * g
        v = self.beta2 * exp_avg_sq + (1 - self.beta2) * g * g
        m_hat = m / (1 - self.beta1 ** self.step)
        v_hat = v / (1 - self.beta2 ** self.step)
        return param - self.lr * m_hat / (torch.sqrt(v_hat) + self.eps)

numel = 1 << 25

def get_inputs():
    return [torch.randn(numel), torch.randn(numel), torch.randn(numel) * 0.1, torch.rand(numel) * 0.01]

def get_init_inputs():
    return [1e-3, 0.9, 0.999, 1e-8, 0.01, 10]
