"""Every fenced block in README.md and docs/*.md runs as written against a real daemon.

The blocks are read from the Markdown, so a doc change is tested too:

- ``sh``/``bash`` blocks run with ``bash -e``, ``python`` blocks each as a
  script of their own with the venv's Python, in document order, from a
  directory that looks like a checkout after ``make run`` (``.venv``,
  ``examples``, ``docs``), with ``REVERIE_SOCKET`` pointing at a fresh daemon
  (one per document), each document's blocks twice in a row (examples are re-runnable);
- a block in another language (``toml``, ``json``, ``text``, ...) is data,
  not a command, and is not run;
- a block that cannot run in a test carries ``<!-- not-tested: reason -->``
  on the line before its fence;
- an unmarked block with no language fails the test: say what it is.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process


ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL = {"sh", "bash", "shell"}
PYTHON = {"python", "py"}
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
_MARKER = re.compile(r"^<!--\s*not-tested:\s*\S.*-->\s*$")


@dataclass(frozen=True)
class Block:
    doc: str
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    marked: bool  # carries a not-tested marker

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks(text: str, doc: str) -> list[Block]:
    """The fenced blocks of a Markdown text, in order."""
    lines = text.splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent, fence, lang = opening.groups()
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        before = next((line for line in reversed(lines[:i]) if line.strip()), "")
        body = "\n".join(line.removeprefix(indent) for line in lines[i + 1 : end]) + "\n"
        found.append(Block(doc, i + 1, lang.lower(), body, bool(_MARKER.match(before.strip()))))
        i = end + 1
    return found


def _runnable(block: Block) -> bool:
    return not block.marked and block.lang in SHELL | PYTHON


def test_the_parser_sees_languages_markers_and_unclosed_fences() -> None:
    text = (
        "intro\n```sh\necho a\n```\n<!-- not-tested: starts a service -->\n"
        "```sh\nsystemctl start x\n```\n  ```python\n  print(1)\n  ```\n"
        "```toml\n[a]\n```\n```\nbare\n```\n"
    )
    got = [(b.line, b.lang, b.text, b.marked) for b in blocks(text, "t.md")]
    assert got == [
        (2, "sh", "echo a\n", False),
        (6, "sh", "systemctl start x\n", True),
        (9, "python", "print(1)\n", False),
        (12, "toml", "[a]\n", False),
        (15, "", "bare\n", False),
    ]


def test_every_block_runs_or_says_why_not() -> None:
    every = [b for doc in DOCS for b in blocks(doc.read_text(), doc.name)]
    unknown = [b.where for b in every if not b.lang and not b.marked]
    assert not unknown, (
        f"fenced blocks with no language and no <!-- not-tested: reason --> marker: {unknown}; "
        "tag them sh/python (they then run in this test), or a data language such as text/toml"
    )
    # A parser that finds nothing would pass everything: the README alone has several.
    assert sum(_runnable(b) for b in every) >= 8


def _checkout_like(tmp: Path) -> Path:
    """A working directory with the paths the docs use, and nothing to clobber."""
    cwd = tmp / "checkout"
    cwd.mkdir()
    (cwd / ".venv").symlink_to(Path(sys.prefix))
    for name in ("examples", "docs"):
        (cwd / name).symlink_to(ROOT / name)
    return cwd


def _env(daemon: InProcessDaemon) -> dict[str, str]:
    """The user's environment: the daemon's socket; the venv not on PATH (docs say .venv/bin)."""
    bindir = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p != bindir)
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    return {**env, "PATH": path, "REVERIE_SOCKET": str(daemon.socket)}


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_doc_blocks_run_as_written(
    make_daemon: Callable[..., InProcessDaemon], tmp_path: Path, doc: Path
) -> None:
    runnable = [b for b in blocks(doc.read_text(), doc.name) if _runnable(b)]
    if not runnable:
        pytest.skip(f"{doc.name} has no sh or python block")
    daemon = make_daemon()
    cwd = _checkout_like(tmp_path)
    env = _env(daemon)
    # Twice in a row, on the same daemon: a reader runs an example again, and each
    # example keeps to its own sessions, so the second run must pass too.
    for run in ("first", "second"):
        for n, block in enumerate(runnable):
            if block.lang in SHELL:
                cmd = ["bash", "-e", "-c", block.text]
            else:
                script = cwd / f"block{n}.py"
                script.write_text(block.text)
                cmd = [str(cwd / ".venv" / "bin" / "python"), script.name]
            out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=180)
            assert out.returncode == 0, (
                f"{block.where} ({block.lang}) failed on its {run} run:\n{out.stdout}{out.stderr}"
            )
            assert "Traceback" not in out.stderr, f"{block.where} ({run} run):\n{out.stderr}"


_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_docs_and_tests_point_inside_the_repository() -> None:
    """A clone has only the repository: no doc, test or module names a file outside it."""
    sources = [*DOCS, *ROOT.glob("tests/**/*.py"), *ROOT.glob("*/[!.]*.py")]
    outside = [
        str(path.relative_to(ROOT))
        for path in sources
        if path != Path(__file__)
        and re.search(r"shared/(DESIGN|STYLE|DEPENDENCIES)\.md", path.read_text())
    ]
    assert not outside, f"these point outside the repository (use docs/design.md): {outside}"
    broken = [
        f"{doc.name}: {target}"
        for doc in DOCS
        for target in _LINK.findall(doc.read_text())
        if "://" not in target and not (doc.parent / target).exists()
    ]
    assert not broken, f"links to files that do not exist: {broken}"
    assert "docs/design.md" in (ROOT / "README.md").read_text()
