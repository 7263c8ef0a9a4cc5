"""Generators: anything that turns a conversation into the model's next answer.  Refinement takes
any callable `(messages) -> str`; two come with cudaperf: a local transformers model and an
OpenAI-compatible chat endpoint (a vLLM or SGLang server, or a hosted API).  Models are loaded from
local directories only, never fetched from a hub."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from .prompts import plain_text

Generator = Callable[[list[dict[str, str]]], str]


class GenerationError(RuntimeError):
    """The generator could not produce an answer (endpoint unreachable, bad response)."""


class OpenAIGenerator:
    """POST {base_url}/chat/completions, as vLLM's `vllm serve MODEL` exposes at http://HOST:8000/v1."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, temperature: float = 0.7,
                 max_tokens: int = 4096, timeout: float = 600.0):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model, self.api_key = model, api_key
        self.temperature, self.max_tokens, self.timeout = temperature, max_tokens, timeout

    def __call__(self, messages: list[dict[str, str]]) -> str:
        body = json.dumps({"model": self.model, "messages": messages, "temperature": self.temperature,
                           "max_tokens": self.max_tokens}).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                data = json.loads(response.read())
        except (urllib.error.URLError, TimeoutError, ValueError) as exc:
            raise GenerationError(f"{self.url}: {exc}") from None
        try:
            return data["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            raise GenerationError(f"{self.url}: unexpected response {str(data)[:200]}") from None


class LocalGenerator:
    """A causal LM from a local directory through transformers (chat template when it has one)."""

    def __init__(self, model: str | Any, tokenizer: Any = None, max_new_tokens: int = 2048,
                 temperature: float = 0.7, device: str | None = None):
        from transformers import AutoModelForCausalLM, AutoTokenizer

        if isinstance(model, str):
            tokenizer = tokenizer or AutoTokenizer.from_pretrained(model, local_files_only=True)
            model = AutoModelForCausalLM.from_pretrained(model, local_files_only=True)
        self.model, self.tokenizer = model, tokenizer
        if device:
            self.model.to(device)
        self.max_new_tokens, self.temperature = max_new_tokens, temperature

    def __call__(self, messages: list[dict[str, str]]) -> str:
        import torch

        if getattr(self.tokenizer, "chat_template", None):
            text = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        else:
            text = plain_text(messages)
        inputs = self.tokenizer(text, return_tensors="pt", add_special_tokens=False).to(self.model.device)
        with torch.no_grad():
            output = self.model.generate(**inputs, max_new_tokens=self.max_new_tokens,
                                         do_sample=self.temperature > 0, temperature=self.temperature or None,
                                         pad_token_id=self.tokenizer.pad_token_id or self.tokenizer.eos_token_id)
        return self.tokenizer.decode(output[0, inputs["input_ids"].shape[1]:], skip_special_tokens=True)
