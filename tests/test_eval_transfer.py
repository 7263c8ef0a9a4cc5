"""transfer.py: the values that cross between the checker and the candidate's worker.  What a candidate
writes is read by the checker, so every malformed or oversized description must be refused, not
trusted.  Needs torch (the CPU build)."""

from __future__ import annotations

import json
import os

import pytest

torch = pytest.importorskip("torch")
from cudaperf.rewards.execution.transfer import TransferError, described_device, read, write  # noqa: E402

pytestmark = pytest.mark.torch


def test_nested_values_round_trip_as_copies(tmp_path):
    value = [torch.arange(6, dtype=torch.float32).reshape(2, 3), (torch.tensor([True, False]), 3, 2.5, None),
             [["weight", torch.ones(2, dtype=torch.bfloat16)]], torch.empty(0, dtype=torch.int64),
             torch.tensor(1.5)]   # a 0-dim output (a loss), which cannot be viewed as bytes as it is
    write(value, tmp_path / "v")
    back = read(tmp_path / "v", "cpu", 1 << 20)
    assert torch.equal(back[0], value[0]) and back[0].data_ptr() != value[0].data_ptr()
    assert isinstance(back[1], tuple) and torch.equal(back[1][0], value[1][0]) and back[1][1:] == (3, 2.5, None)
    assert back[2][0][0] == "weight" and back[2][0][1].dtype == torch.bfloat16
    assert back[3].shape == (0,) and back[3].dtype == torch.int64
    assert back[4].shape == () and back[4].item() == 1.5


def test_the_writers_account_of_device_and_subclass_is_kept(tmp_path):
    class Sub(torch.Tensor):
        pass

    write([torch.zeros(2), torch.zeros(2).as_subclass(Sub)], tmp_path / "v")
    assert described_device(tmp_path / "v") == [("cpu", False), ("cpu", True)]


def _tamper(directory, change):
    tree = json.loads((directory / "value.json").read_text())
    change(tree)
    (directory / "value.json").write_text(json.dumps(tree))


@pytest.mark.parametrize("case", ["path", "dtype", "shape", "size", "budget", "symlink", "depth", "junk"])
def test_a_hostile_description_is_refused(tmp_path, case):
    directory = tmp_path / "v"
    write([torch.ones(4)], directory)
    secret = tmp_path / "secret.bin"
    secret.write_bytes(b"\0" * 16)
    if case == "path":
        _tamper(directory, lambda t: t["list"][0].update(tensor="../secret.bin"))
    elif case == "dtype":
        _tamper(directory, lambda t: t["list"][0].update(dtype="object"))
    elif case == "shape":
        _tamper(directory, lambda t: t["list"][0].update(shape=[-1]))
    elif case == "size":
        _tamper(directory, lambda t: t["list"][0].update(shape=[1 << 20]))   # the file holds 4 floats
    elif case == "symlink":
        os.remove(directory / "t0.bin")
        os.symlink(secret, directory / "t0.bin")
    elif case == "depth":
        nested: dict = {"scalar": 1}
        for _ in range(10):
            nested = {"list": [nested]}
        (directory / "value.json").write_text(json.dumps(nested))
    elif case == "junk":
        (directory / "value.json").write_bytes(b"\x00\xff not json")
    budget = 8 if case == "budget" else 1 << 20   # four floats are 16 bytes
    with pytest.raises(TransferError):
        read(directory, "cpu", budget)


def test_values_that_cannot_cross_are_refused_on_writing(tmp_path):
    with pytest.raises(TransferError):
        write([object()], tmp_path / "a")
    with pytest.raises(TransferError):
        write(["x" * 1000], tmp_path / "b")
