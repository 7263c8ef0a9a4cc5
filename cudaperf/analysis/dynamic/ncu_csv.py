"""Reading ``ncu --csv --page raw`` output as Nsight Compute writes it in practice.

What real files contain (measured with ncu 2025.3.1): ``==PROF==``/``==WARNING==`` lines before
the header, the profiled application's own output interleaved anywhere when ``--log-file`` was not
used (sometimes glued to the front of a CSV line), a units row after the header, quoted fields,
numbers with thousands separators and ``n/a``.  A line counts as a row only when it parses to as
many fields as the header has and its ID is a number; everything else is noise.  Values scaled by
a unit prefix (``--print-units auto``: ``Mbyte``, ``usecond``) are brought back to bytes and
nanoseconds, the base units ``--csv`` prints by default.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

_HEADER = re.compile(r'"ID","Process ID"')
_ROW_START = re.compile(r'"\d*","')
_SCALE = {  # unit -> factor to the base unit (byte, nanosecond)
    "byte": 1.0, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
    "ns": 1.0, "nsecond": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6, "second": 1e9, "s": 1e9,
}


class NcuCsvError(ValueError):
    """The text holds no ``ncu --csv --page raw`` table."""


@dataclass(frozen=True)
class NcuRow:
    """One profiled launch: raw field text and the unit of each column."""

    values: dict[str, str]
    units: dict[str, str]

    def text(self, column: str) -> str | None:
        value = self.values.get(column)
        return None if value is None or value.strip() in ("", "n/a", "N/A") else value.strip()

    def number(self, column: str) -> float | None:
        """The value in base units; None when the column is absent, empty, ``n/a`` or not numeric."""
        value = self.text(column)
        if value is None:
            return None
        try:
            number = float(value.replace(",", ""))
        except ValueError:
            return None
        return number * _SCALE.get(self.units.get(column, ""), 1.0)


def _fields(line: str, start: re.Pattern[str]) -> list[str] | None:
    """The CSV fields of a line, skipping application output glued in front of them."""
    found = start.search(line)
    if found is None:
        return None
    return next(csv.reader([line[found.start():]]), None)


def parse(text: str) -> list[NcuRow]:
    """Every profiled launch in file order.  A second header (another process) starts a new table."""
    header: list[str] | None = None
    units: dict[str, str] | None = None
    rows: list[NcuRow] = []
    for line in text.splitlines():
        if _HEADER.search(line):
            header, units = _fields(line, _HEADER), None
            continue
        if header is None:
            continue
        fields = _fields(line, _ROW_START)
        if fields is None or len(fields) != len(header):
            continue
        if fields[0] == "" and units is None:
            units = dict(zip(header, fields))
        elif fields[0].isdigit():
            rows.append(NcuRow(dict(zip(header, fields)), units or {}))
    if header is None:
        raise NcuCsvError("no ncu --csv --page raw header (a line starting \"ID\",\"Process ID\") found")
    return rows


def read(path: str | Path) -> list[NcuRow]:
    return parse(Path(path).read_text(errors="replace"))
