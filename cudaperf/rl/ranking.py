"""The offline pairwise ranker, as `cudaperf.rl.ranking` has always offered it: the model lives in
`cudaperf.costmodel` (below both rewards and rl), re-exported here."""

from __future__ import annotations

from ..costmodel.model import SCHEMA, Ranker
from ..costmodel.terms import ARCH, TERMS, describe, log_terms, serial_requests, time_terms, vector

__all__ = ["ARCH", "SCHEMA", "TERMS", "Ranker", "describe", "log_terms", "serial_requests", "time_terms", "vector"]
