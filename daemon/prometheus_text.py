"""Prometheus text exposition (format 0.0.4): how a metric family is written.

Kept apart from ``metrics``, which decides what the daemon reports, so that
the format's rules (escaping, number spelling, HELP and TYPE before the
samples, missing values as 0) are written once and read in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["Sample", "escape", "family", "number", "one", "parts"]

#: One sample of a family: its labels and its value.
Sample = tuple[Mapping[str, str], float]


def escape(value: str) -> str:
    """A label value as the format quotes it: backslash, newline and quote escaped."""
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def number(value: Any) -> str:
    """A sample value: booleans as 1 or 0, ints exact, the rest as floats."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    return repr(float(value))


def family(name: str, kind: str, help_text: str, samples: Iterable[Sample]) -> list[str]:
    """One metric family: its HELP and TYPE lines, then a line per sample."""
    lines = [f"# HELP reverie_{name} {help_text}", f"# TYPE reverie_{name} {kind}"]
    for labels, value in samples:
        label_text = ",".join(f'{k}="{escape(str(v))}"' for k, v in sorted(labels.items()))
        suffix = f"{{{label_text}}}" if label_text else ""
        lines.append(f"reverie_{name}{suffix} {number(value)}")
    return lines


def one(value: Any) -> list[Sample]:
    """The single unlabelled sample of a family; a missing value is 0."""
    return [({}, value or 0)]


def parts(label: str, source: Mapping[str, Any], keys: Mapping[str, str]) -> list[Sample]:
    """One sample per part: ``label`` = the part's name, its value ``source[key]``."""
    return [({label: part}, source.get(key) or 0) for part, key in keys.items()]
