"""Threads together: block and warp barriers, cooperative groups (their handles, methods and
syncs), warp collectives and votes, and the barriers and memory of inline PTX."""

from __future__ import annotations

import re

from ..ctype import INT, UNKNOWN
from ..ir import Barrier, Collective
from ..parse import Node, text
from ..symbolic import ONE, ZERO, Const, Expr, Opaque, Sym, op
from .values import Env, Group, Loc, Ptr, Scalar, Val, _opaque

_BLOCK_BARRIERS = {"__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
                   "__barrier_sync"}
_BLOCK_VOTES = {"__syncthreads_count", "__syncthreads_and", "__syncthreads_or"}  # same result in every thread
_WARP_VOTES = re.compile(r"^__(ballot|all|any|uni|match_all|reduce_\w+)_sync$")  # same result in every lane

# cg::sync(g) (also `synchronize(g)`, the older spelling); cg::wait(g) syncs g after its memcpy_async
_GROUP_SYNCS = {"sync", "synchronize", "wait", "wait_prior"}

# inline PTX: block barriers (`bar.sync 1, 64` names a thread count), warp barriers, memory it touches
_PTX_BARRIER = re.compile(r"\b(?:bar|barrier)(?:\.cta)?\.(?:sync|red|arrive)(?:\.aligned)?\s+([^;\"]*)")
_UNSEEN_SYNC = re.compile(r"sync|barrier", re.IGNORECASE)
_PTX_WARP_BARRIER = re.compile(r"\bbar\.warp\.sync\b")

# one-instruction PTX whose output `%0` is a function of its input `%1` the evaluator computes:
# `bfind` (highest set bit) rounds sizes to powers of two (`1 << (bfind(len - 1) + 1)`)
_PTX_UNARY = {"bfind": re.compile(r"^\s*bfind\.u32\s+%0\s*,\s*%1\s*;?\s*$")}
_PTX_MEMORY = {"shared": re.compile(r"\b(?:cp\.async|ldmatrix|stmatrix|wgmma|mbarrier|[a-z]+\.shared)\b"),
               "global": re.compile(r"\b(?:cp\.async|[a-z]+\.global)\b")}
_WARP_COLLECTIVES = re.compile(r"^__(shfl(_up|_down|_xor)?|ballot|all|any|uni|match_any|match_all|reduce_\w+)_sync$")
_FULL_MASKS = (0xFFFFFFFF, -1.0)


class Synchronisation:
    """The lowering of synchronisation (a part of Lowerer)."""

    def _unseen_sync(self, node: Node, env: Env) -> bool:
        """A statement naming something this file never defines that says it synchronises: it
        may be a barrier, so it orders what is around it (and is not judged for divergence)."""
        callee = node.child_by_field_name("function") if node.type == "call_expression" else node
        if callee is None or callee.type != "identifier":
            return False
        name = text(callee)
        arguments = node.child_by_field_name("arguments") if node.type == "call_expression" else None
        first = next((a for a in arguments.named_children if a.type != "comment"), None) if arguments else None
        if name in _GROUP_SYNCS and first is not None and isinstance(self.expr(first, env, record=False), Group):
            return False  # `sync(g)` under `using namespace cooperative_groups`: the group's own barrier
        return bool(_UNSEEN_SYNC.search(name)) and not name.startswith("__") and env.lookup(name) is None and \
            name not in self.scope.source.macros and name not in self.scope.device_functions

    def _method(self, method: str, group: Val, values: list[Val], node: Node) -> Val:
        """Cooperative-groups methods on a thread block or a tile; other methods are opaque."""
        if not isinstance(group, Group):
            # cuda::barrier (its thread count is the caller's choice): arrive_and_wait(), or wait() on an
            # object an earlier arrive() was called on (`auto t = bar.arrive(); bar.wait(std::move(t));`)
            holder = text(node.child_by_field_name("function").child_by_field_name("argument"))
            if method == "arrive":
                self.arrived.add(holder)
            if method == "arrive_and_wait" or (method == "wait" and holder in self.arrived):
                self._barrier(node, "block", f"{method}()", removable=False, counted=True)
            return _opaque(f"method {method}")
        if method in ("sync", "barrier_wait", "arrive_and_wait"):
            return self._group_sync(group, node, f"{method}()")
        block_threads = op("*", op("*", Sym("bdim.x"), Sym("bdim.y")), Sym("bdim.z"))
        if group.cluster is not None:  # the block's rank in its cluster: x fastest, as blockIdx runs
            (cx, cy, cz), axes = group.cluster, ("x", "y", "z")
            self.uses.update(f"bid.{a}" for a, n in zip(axes, group.cluster) if n > 1)
            rank = [op("%", Sym(f"bid.{a}"), Const(float(n))) if n > 1 else ZERO for a, n in zip(axes, group.cluster)]
            blocks = op("+", rank[0], op("*", Const(float(cx)), op("+", rank[1], op("*", Const(float(cy)), rank[2]))))
            found = {"block_rank": blocks, "num_blocks": Const(float(cx * cy * cz)),
                     "thread_rank": op("+", op("*", blocks, block_threads), self._linear_tid()),
                     "num_threads": op("*", Const(float(cx * cy * cz)), block_threads)}.get(method)
            return Scalar(found) if found is not None else _opaque(f"cluster {method}")
        if group.grid:  # the rank in the grid: blocks in x, y, z order, threads within each
            blocks = op("+", Sym("bid.x"), op("*", Sym("gdim.x"), op("+", Sym("bid.y"), op("*", Sym("gdim.y"),
                                                                                             Sym("bid.z")))))
            self.uses.update(("bid.x", "bid.linear"))  # every axis, but no evidence of a 3-D grid
            grid_blocks = op("*", op("*", Sym("gdim.x"), Sym("gdim.y")), Sym("gdim.z"))
            found = {"thread_rank": op("+", op("*", blocks, block_threads), self._linear_tid()),
                     "size": op("*", grid_blocks, block_threads), "num_threads": op("*", grid_blocks, block_threads),
                     "block_rank": blocks, "num_blocks": grid_blocks}.get(method)
            return Scalar(found) if found is not None else _opaque(f"grid {method}")
        size = group.size if group.size is not None else block_threads
        rank = self._linear_tid()
        if method == "shfl" and len(values) == 2 and all(isinstance(v, Scalar) for v in values):
            return Scalar(op("shfl_idx", values[0].expr, values[1].expr, size), values[0].type)
        if method == "thread_rank":
            return Scalar(op("%", rank, size) if group.size is not None else rank)
        if method in ("size", "num_threads"):
            return Scalar(size)
        if method == "meta_group_rank":  # the tile's index in its block (a block's own: 0)
            return Scalar(op("/", rank, size) if group.size is not None else ZERO)
        if method == "meta_group_size":  # tiles per block, the last one maybe partial
            return Scalar(op("/", op("+", block_threads, op("-", size, ONE)), size) if group.size is not None
                          else ONE)
        exprs = tuple(v.expr for v in values if isinstance(v, Scalar))
        return Scalar(op("shfl", *exprs) if exprs else Opaque(method),
                      values[0].type if values and isinstance(values[0], Scalar) else UNKNOWN)

    def _block_collective(self, made: Node | None, env: Env) -> bool:
        """`BlockReduce(temp_storage).Sum(v)`: a method of an object built on shared scratch space
        (cub's block primitives) is called by every thread and passes data between warps through
        it, so it holds a block barrier the lowering cannot see; it orders the accesses around it."""
        if made is None or made.type != "call_expression":
            return False
        arguments = made.child_by_field_name("arguments")
        values = [self.expr(a, env, record=False) for a in (arguments.named_children if arguments else [])]
        return any(isinstance(v, Loc | Ptr) and v.space == "shared" for v in values)

    def _linear_tid(self) -> Expr:
        self.uses.update(("tid.x", "tid.linear"))  # every axis, but no evidence of a 3-D block
        row = op("+", Sym("tid.y"), op("*", Sym("bdim.y"), Sym("tid.z")))
        return op("+", Sym("tid.x"), op("*", Sym("bdim.x"), row))

    def _group_sync(self, group: Group, node: Node, name: str) -> Val:
        warp_level = isinstance(group.size, Const) and group.size.value <= 32
        # a tile of a whole warp waits for all 32 of its lanes, as __syncwarp() does; a smaller tile's
        # lanes are a part of the warp the analysis does not judge
        whole_warp = warp_level and group.size.value == 32
        self._barrier(node, "grid" if group.grid else "warp" if warp_level else "block", name,
                      full_mask=True if whole_warp else None)
        return Scalar(ZERO)

    def _barrier(self, node: Node, scope: str, name: str, full_mask: bool | None = None, removable: bool = True,
                 counted: bool = False) -> None:
        line, column = self._pos(node)
        self.emit(Barrier(self._id(), line, column, name, scope, full_mask, removable and not self.inline_stack,
                          counted))
        self._clobber()

    def _asm(self, node: Node, env: Env, record: bool) -> Val:
        """Inline PTX: barriers and the memory its instructions touch; outputs become unknown values."""
        code = " ".join(text(c) for c in node.children if c.type in ("string_literal", "concatenated_string"))
        inputs, outputs = [], []
        for operands in node.named_children:
            for operand in operands.named_children if operands.type.endswith("operand_list") else []:
                value = operand.named_children[-1] if operand.named_children else None
                if operands.type == "gnu_asm_input_operand_list":
                    inputs.append(self.rvalue(value, env, record))
                elif value is not None and value.type == "identifier" and env.lookup(text(value)) is not None:
                    outputs.append(text(value))
        unary = next((name for name, pattern in _PTX_UNARY.items() if pattern.match(code.strip('"'))), None)
        for name in outputs:
            computed = unary and len(outputs) == 1 and len(inputs) == 1 and isinstance(inputs[0], Scalar)
            env.assign(name, Scalar(op(unary, inputs[0].expr, is_int=True)) if computed else _opaque("asm output"))
        if record:
            self._opaque_memory(node, [space for space, pattern in _PTX_MEMORY.items() if pattern.search(code)], "asm")
        for m in _PTX_BARRIER.finditer(code):
            counted = "," in m.group(1)
            self._barrier(node, "block", "bar.sync", removable=False, counted=counted)
        if _PTX_WARP_BARRIER.search(code):
            self._barrier(node, "warp", "bar.warp.sync", removable=False)
        return _opaque("asm")

    # ---------------------------------------------------------------- calls by name (see calls._ON_ARGUMENTS)
    def _block_barrier(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val:
        """`__syncthreads()` and its votes (`__syncthreads_count(p)`: the same result in every thread)."""
        votes = [self.rvalue(a, env, record) for a in arg_nodes]
        self._barrier(node, "block", name, removable=name not in _BLOCK_VOTES)
        exprs = tuple(v.expr for v in votes if isinstance(v, Scalar))
        return Scalar(op("block_uniform", *exprs) if exprs else Opaque(name))

    def _group_sync_call(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val | None:
        """`cg::sync(g)`: the barrier of group g (None where the argument is no group)."""
        if not arg_nodes:
            return None
        group = self.expr(arg_nodes[0], env, record)
        return self._group_sync(group, node, f"{name}()") if isinstance(group, Group) else None

    def _syncwarp(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val:
        mask = self.rvalue(arg_nodes[0], env, record) if arg_nodes else None
        self._barrier(node, "warp", name, True if mask is None else _full_mask(mask))
        return Scalar(ZERO)

    def _this_thread_block(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val:
        return Group(None)

    def _this_grid(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val:
        return Group(None, grid=True)

    def _this_cluster(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val | None:
        """`cg::this_cluster()` of a kernel whose cluster dimensions are constants; otherwise an opaque call."""
        return Group(None, cluster=self.cluster) if self.cluster is not None else None

    def _tiled_partition(self, name: str, node: Node, arg_nodes: list[Node], env: Env, record: bool) -> Val | None:
        """`tiled_partition(parent, size)` (the template form `tiled_partition<16>(parent)` is read in _call_of)."""
        if len(arg_nodes) != 2:
            return None
        size = self.rvalue(arg_nodes[1], env, record=False)
        return Group(size.expr if isinstance(size, Scalar) else Opaque("tile size"))

    # ---------------------------------------------------------------- calls by name (see calls._ON_VALUES)
    def _warp_intrinsic(self, name: str, node: Node, values: list[Val], record: bool) -> Val | None:
        """`__shfl_*_sync`, `__ballot_sync`, `__all_sync`, ...: a collective of the lanes its mask
        names; a vote gives every lane the same result, `__shfl_sync` reads one lane's value."""
        if record and values:
            lane = values[2].expr if name.startswith("__shfl") and len(values) > 2 and \
                isinstance(values[2], Scalar) else None
            width = values[3].expr if lane is not None and len(values) > 3 and isinstance(values[3], Scalar) else None
            self.emit(Collective(self._id(), *self._pos(node), name, _full_mask(values[0]), lane, width))
        if _WARP_VOTES.match(name) and len(values) >= 2 and isinstance(values[1], Scalar):
            return Scalar(op("warp_uniform", values[1].expr), INT if name != "__ballot_sync" else UNKNOWN)
        if name == "__shfl_sync" and len(values) >= 3 and all(isinstance(v, Scalar) for v in values[1:]):
            width = values[3].expr if len(values) > 3 else Const(32.0)
            return Scalar(op("shfl_idx", values[1].expr, values[2].expr, width), values[1].type)
        return None  # the other shuffles: an opaque call

    def _group_reduce(self, name: str, node: Node, values: list[Val], record: bool) -> Val | None:
        """`cg::reduce(tile, v, op)` over a whole warp: the same result in every lane."""
        if len(values) >= 2 and isinstance(values[0], Group) and not values[0].grid and \
                values[0].size == Const(32.0) and isinstance(values[1], Scalar):
            return Scalar(op("warp_uniform", values[1].expr), values[1].type)
        return None


def _full_mask(value: Val) -> bool | None:
    """Is a warp mask the constant naming all 32 lanes?  None when it is not a constant."""
    if isinstance(value, Scalar) and isinstance(value.expr, Const):
        return value.expr.value in _FULL_MASKS
    return None
