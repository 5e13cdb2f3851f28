"""What one benchmark module measured, in a form ``python -m bench`` can write to BENCHMARKS.md.

Each module's ``main()`` prints its figures as it goes (progress for a person
watching) and returns a :class:`Section`. ``python -m bench`` gathers the
sections of one run and writes them, under the machine and versions they were
measured on, into ``BENCHMARKS.md`` — so every figure in that file comes from
the same run as its baseline.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Table:
    """A Markdown table: a header row and rows of already formatted cells."""

    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)

    def row(self, *cells: object) -> None:
        """Add a row; cells are formatted with ``str``."""
        if len(cells) != len(self.columns):
            raise ValueError(f"row has {len(cells)} cells, table has {len(self.columns)} columns")
        self.rows.append([str(c) for c in cells])

    def markdown(self) -> str:
        lines = ["| " + " | ".join(self.columns) + " |"]
        lines.append("| " + " | ".join("---" for _ in self.columns) + " |")
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines)


@dataclass(slots=True)
class Section:
    """One module's part of BENCHMARKS.md: a heading, a few lines of context, tables, notes."""

    title: str
    intro: str = ""
    tables: list[Table] = field(default_factory=list)
    notes: str = ""

    def table(self, *columns: str) -> Table:
        """A new table, appended to this section."""
        table = Table(list(columns))
        self.tables.append(table)
        return table

    def markdown(self) -> str:
        parts = [f"## {self.title}"]
        parts += [self.intro.strip()] if self.intro.strip() else []
        parts += [t.markdown() for t in self.tables]
        parts += [self.notes.strip()] if self.notes.strip() else []
        return "\n\n".join(parts) + "\n"


def ratio(measured: float, baseline: float) -> str:
    """``measured / baseline`` as ``0.58×``; ``—`` when the baseline is zero."""
    return f"{measured / baseline:.2f}×" if baseline else "—"


def verdict(met: bool, gap: str = "") -> str:
    """``✓`` for a met target, else ``**gap**`` with what is missing."""
    return "✓" if met else f"**gap** {gap}".rstrip()
