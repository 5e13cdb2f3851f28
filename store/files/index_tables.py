"""The LanceDB tables of one search index: a home table and generations of messages.

Why more than one table: LanceDB's ``optimize()`` compacts every fragment
under its target of a million rows and refreshes each scalar index whole, so
optimizing a table costs what the table holds (on two quiet cores about
0.16 s at 16,000 rows, 0.5 s at 65,000, 2 s at 262,000, and its memory
transient with it: BENCHMARKS.md, "Generations"). A daemon running for months
would rewrite its whole history every minute or so. Here messages go to the
*open* generation until it holds ``IndexLimits.generation_rows`` rows; the
next write of messages seals it and opens the next, and afterwards only
writes to a generation make it worth optimizing again: an optimize costs at
most a generation, whatever the history.

The home table ``docs`` is the first generation and also holds every
episode and fact: they are few (about one row per consolidation), and their
full-text statistics stay in one table, so LanceDB's BM25 scores remain
comparable. An index written before generations existed is a home table
that may have grown large: it keeps serving, nothing is moved.

Each table knows the sessions and scopes it holds (``Keys``: their hashes),
so a search filtered by session or scope skips the generations that cannot
hold any of its rows. A session's messages arrive over a span of time, so
such a search reads one or two generations, not all of them. A sealed
table's keys are saved beside it when it is sealed (``keys_path``), and
again before any later write to it (the home table's episodes and facts),
so opening an index reads the open generation's names, not the history's.

Sealed generations are merged, ``MERGE_FAN_IN`` at a time, into larger
tables up to ``IndexLimits.merged_rows`` rows (``merge_run``): a session that
lives through the whole history then pays a query per table for a number of
tables that grows with the logarithm of the history, not with it. A merge is
a copy of the index into a new directory (``SearchIndex.copy_to``), swapped
in like a forget's purge.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "HOME",
    "KEYS_SUFFIX",
    "MERGE_FAN_IN",
    "Keys",
    "Tables",
    "generation_name",
    "generation_number",
    "keys_path",
    "merge_run",
]

#: The home table's name: the first generation, and every episode and fact.
HOME = "docs"
_GENERATION = re.compile(r"docs_(\d+)")
#: How the file a sealed table's keys are saved in ends (``keys_path``).
KEYS_SUFFIX = ".keys.npz"
#: Sealed tables of one size merged into one at a time (``merge_run``). Four keeps at
#: most three tables of each size, and rewrites each row once per fourfold growth.
MERGE_FAN_IN = 4


def generation_name(number: int) -> str:
    """The table name of generation ``number`` (0 is the home table)."""
    return HOME if number == 0 else f"docs_{number}"


def generation_number(name: str) -> int | None:
    """The generation a table name stands for; None for a table that is not one of ours."""
    if name == HOME:
        return 0
    found = _GENERATION.fullmatch(name)
    return int(found.group(1)) if found else None


def keys_path(root: Path, name: str) -> Path:
    """Where the keys of table ``name`` of the index in ``root`` are saved once it is sealed."""
    return root / f"{name}{KEYS_SUFFIX}"


def _hash(value: str) -> int:
    """A name's 64-bit hash, the same in every process (Python's own ``hash`` of a str
    is salted per process, and keys outlive one)."""
    return int.from_bytes(hashlib.blake2b(value.encode(), digest_size=8).digest(), signed=True)


def _hashes(values: Iterable[str]) -> npt.NDArray[np.int64]:
    """Sorted distinct hashes of ``values``."""
    return np.unique(np.fromiter((_hash(v) for v in values), dtype=np.int64))


@dataclass(slots=True)
class Keys:
    """The sessions and scopes one table may hold, as sorted hashes.

    Deleted rows are not taken out: a stale key only costs a search one
    table it finds nothing in, never a missed row. Eight bytes per distinct
    name per table, kept for the life of the process.
    """

    sessions: npt.NDArray[np.int64] = field(default_factory=lambda: _hashes(()))
    scopes: npt.NDArray[np.int64] = field(default_factory=lambda: _hashes(()))

    @classmethod
    def of(cls, rows: pa.Table) -> Keys:
        """The keys of ``rows`` (at least their ``session`` and ``scope`` columns)."""
        keys = cls()
        keys.add(rows)
        return keys

    def add(self, rows: pa.Table) -> None:
        """Take in the names of ``rows`` just written to the table."""
        self.sessions = np.union1d(self.sessions, _hashes(_distinct(rows, "session")))
        self.scopes = np.union1d(self.scopes, _hashes(_distinct(rows, "scope")))

    def save(self, path: Path) -> None:
        """Write the keys to ``path`` whole or not at all (a temp file renamed)."""
        temp = path.with_name(path.name + ".tmp")
        with temp.open("wb") as out:
            np.savez(out, sessions=self.sessions, scopes=self.scopes)
        os.replace(temp, path)

    @classmethod
    def load(cls, path: Path) -> Keys | None:
        """The keys saved at ``path``; None if there are none or they do not read back."""
        try:
            with np.load(path) as saved:
                return cls(
                    sessions=saved["sessions"].astype(np.int64),
                    scopes=saved["scopes"].astype(np.int64),
                )
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            return None

    def may_hold(self, *, session: str | None = None, scope: str | None = None) -> bool:
        """False only when the table holds no row of ``session`` (or of ``scope``)."""
        return _among(self.sessions, session) and _among(self.scopes, scope)

    def may_hold_any(self, sessions: Iterable[str]) -> bool:
        """False only when the table holds no row of any of ``sessions``."""
        return any(_among(self.sessions, s) for s in sessions)


def _distinct(rows: pa.Table, column: str) -> list[str]:
    return [str(v) for v in pc.unique(rows[column]).to_pylist()]


def _among(sorted_hashes: npt.NDArray[np.int64], value: str | None) -> bool:
    if value is None:
        return True
    wanted = _hash(value)
    at = int(np.searchsorted(sorted_hashes, wanted))
    return at < len(sorted_hashes) and int(sorted_hashes[at]) == wanted


@dataclass(slots=True)
class Tables:
    """The open LanceDB tables of one index, oldest generation first (the home table)."""

    by_name: dict[str, Any]  # name -> LanceDB table, home first, then generations in order
    keys: dict[str, Keys]

    @property
    def home(self) -> Any:
        return self.by_name[HOME]

    @property
    def open_name(self) -> str:
        """The generation new messages go to: the newest."""
        return next(reversed(self.by_name))

    def reading(
        self,
        *,
        session: str | None = None,
        scope: str | None = None,
        kinds: Iterable[str] | None = None,
    ) -> list[Any]:
        """The tables a search filtered by ``session``, ``scope`` and ``kinds`` must read
        (generations after the home table hold messages only)."""
        messages = kinds is None or "message" in kinds
        return [
            table
            for name, table in self.by_name.items()
            if (messages or name == HOME) and self.keys[name].may_hold(session=session, scope=scope)
        ]

    def holding_any(self, sessions: Iterable[str]) -> list[Any]:
        """The tables that may hold a row of any of ``sessions``."""
        wanted = list(sessions)
        return [t for n, t in self.by_name.items() if self.keys[n].may_hold_any(wanted)]


def merge_run(
    sealed: Sequence[tuple[str, int]], generation_rows: int, merged_rows: int
) -> list[str]:
    """The sealed tables to merge into one next, oldest first; [] when none are due.

    ``sealed`` are the generations after the home table that take no more
    messages, oldest first, with their rows. A table's tier is the number of
    merges its size stands for (a generation's 0, ``MERGE_FAN_IN`` generations'
    1, ...), rounded, so a sealed table a batch over its size, or one a forget
    thinned, keeps its tier. The oldest ``MERGE_FAN_IN`` tables of the lowest
    tier that has that many are due, unless their merge would pass the tier of
    ``merged_rows`` (0: never merge). The home table is never merged: it keeps
    the episodes and facts, and their full-text index, small.
    """
    top = _tier(merged_rows, generation_rows) if merged_rows > 0 else 0
    by_tier: dict[int, list[str]] = {}
    for name, rows in sealed:
        by_tier.setdefault(_tier(rows, generation_rows), []).append(name)
    for tier in sorted(by_tier):
        if tier < top and len(by_tier[tier]) >= MERGE_FAN_IN:
            return by_tier[tier][:MERGE_FAN_IN]
    return []


def _tier(rows: int, generation_rows: int) -> int:
    return max(0, round(math.log(max(rows, 1) / generation_rows, MERGE_FAN_IN)))
