"""The wheel carries every subpackage; each package pins its public names."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path
from site import getsitepackages

import pytest

from tests.test_architecture import sources

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = [
    "reverie",
    "reverie.config",
    "reverie.store",
    "reverie.actors",
    "reverie.actors.search",
    "reverie.daemon",
    "reverie.agents",
    "reverie.langgraph",
    "reverie.nanobot",
]


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_venv_and_imports_everything(tmp_path: Path) -> None:
    # Built from a copy: setuptools reuses the checkout's build/lib, where a deleted file lives on.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "*.egg-info"))
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(tmp_path / "dist"),
            str(source),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    # setuptools reports a deprecated or ambiguous configuration as a *Warning.
    assert "Warning:" not in built.stdout + built.stderr, built.stderr
    (wheel,) = (tmp_path / "dist").glob("reverie-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True
    )
    # Third-party dependencies come from this environment's site-packages as plain path
    # entries (their .pth files, including our editable install's finder, are not run):
    # every one of them, as a venv made with --system-site-packages keeps most in the base.
    site = Path(
        subprocess.check_output(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    (site / "deps.pth").write_text("".join(f"{path}\n" for path in getsitepackages()))
    modules = sorted(name for name in sources() if not name.endswith("__main__"))
    code = "import importlib, sys\nfor m in sys.argv[1:]:\n    mod = importlib.import_module(m)\n    assert '/venv/' in mod.__file__, mod.__file__\nprint('ok')"
    out = subprocess.run(
        [python, "-c", code, *modules],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
    data = subprocess.run(
        [
            python,
            "-c",
            "import importlib.resources as r; print(sorted(p.name for p in r.files('reverie.store').iterdir()))",
        ],
        capture_output=True,
        text=True,
    )
    assert "data" in data.stdout or not (ROOT / "store" / "data").exists()
    pages = subprocess.run(  # the web inspector's templates ship with it
        [
            python,
            "-c",
            "import importlib.resources as r; "
            "print(sorted(p.name for p in r.files('reverie.daemon.ui.templates').iterdir()))",
        ],
        capture_output=True,
        text=True,
    )
    assert "'base.html'" in pages.stdout and "'scope.html'" in pages.stdout, pages.stderr
    _host_type_checks(python, tmp_path / "host.py")


@pytest.mark.slow
def test_the_documented_install_puts_reverie_with_an_extra_into_any_venv(tmp_path: Path) -> None:
    """docs/frameworks.md's `pip install '/path/to/reverie[agents]'`, as written, into a fresh
    venv outside the checkout: no system site-packages, every dependency installed by pip
    (from its cache or index), then the adapter imported from a directory of the user's own."""
    checkout = tmp_path / "reverie"
    shutil.copytree(ROOT, checkout, ignore=shutil.ignore_patterns(".*", "build", "*.egg-info"))
    docs = (ROOT / "docs" / "frameworks.md").read_text()
    assert "pip install '/path/to/reverie[agents]'" in docs
    env_dir = tmp_path / "project-venv"
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    python = env_dir / "bin" / "python"
    try:
        installed = subprocess.run(
            [python, "-m", "pip", "install", "-q", f"{checkout}[agents]"],
            capture_output=True,
            text=True,
            timeout=1500,
        )
        assert installed.returncode == 0, installed.stdout + installed.stderr[-3000:]
        project = tmp_path / "my-project"
        project.mkdir()
        code = (
            "import sys, reverie, agents\n"
            "from reverie.agents import ReverieSession\n"
            "assert not sys.flags.no_site and sys.prefix != sys.base_prefix\n"
            "print(reverie.__file__, agents.__file__, ReverieSession.__name__)"
        )
        out = subprocess.run(
            [python, "-c", code],
            capture_output=True,
            text=True,
            cwd=project,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        )
        assert out.returncode == 0, out.stderr
        reverie_file, agents_file, name = out.stdout.split()
        assert name == "ReverieSession"
        for where in (reverie_file, agents_file):  # both from the new venv, not from elsewhere
            assert Path(where).is_relative_to(env_dir), out.stdout
    finally:
        shutil.rmtree(env_dir, ignore_errors=True)  # ~750 MB of dependencies


HOST = """\
from reverie import AsyncClient, Client, NotFound, ReverieError


async def host(a: AsyncClient) -> None:
    reveal_type(await a.append("s", "user", "hi"))


def main() -> None:
    with Client() as client:
        reveal_type(client.append("s", "user", "hi"))
        reveal_type(client.search("x", everywhere=True).hits)
        try:
            client.context("s")
        except NotFound as exc:
            reveal_type(exc.code)
        except ReverieError:
            pass
"""


def _host_type_checks(python: Path, snippet: Path) -> None:
    """A host's ``mypy --strict`` sees the installed wheel's types (py.typed), not ``Any``."""
    snippet.write_text(HOST)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            *("--python-executable", python),
            snippet,
        ],
        capture_output=True,
        text=True,
        cwd=snippet.parent,
        env={**os.environ, "PYTHONPATH": "", "MYPYPATH": ""},
    )
    revealed = [  # older mypy spells builtins out
        line.split("Revealed type is ")[1].replace("builtins.", "")
        for line in out.stdout.splitlines()
        if "Revealed" in line
    ]
    assert revealed == [
        '"reverie.daemon.protocol.sessions.Ack"',
        '"reverie.daemon.protocol.sessions.Ack"',
        '"list[reverie.daemon.protocol.search.SearchHitView]"',
        '"str"',
    ], out.stdout


@pytest.mark.parametrize("name", PACKAGES)
def test_all_names_resolve(name: str) -> None:
    module = importlib.import_module(name)
    assert sorted(module.__all__) == sorted(set(module.__all__))
    for attr in module.__all__:
        assert hasattr(module, attr), f"{name}.{attr} is exported but missing"


def test_exports_are_pinned() -> None:
    import reverie
    import reverie.daemon

    assert set(reverie.daemon.__all__) >= {"Client", "AsyncClient", "ConnectionLost"}
    assert {"Client", "AsyncClient", "ReverieError", "NotFound", "Conflict", "Busy"} <= set(
        reverie.__all__
    )
    assert reverie.Client is reverie.daemon.Client


def test_every_error_a_host_can_receive_is_a_class_of_reverie() -> None:
    """The whole tree is importable from ``reverie``: a host catches any code by class."""
    import reverie
    from reverie.config import errors

    tree = {name for name in errors.__all__ if name != "error_class"}
    assert tree <= set(reverie.__all__)
    for name in tree:
        cls = getattr(reverie, name)
        assert cls is getattr(errors, name) and issubclass(cls, reverie.ReverieError)
        assert errors.error_class(cls.code) is cls, f"{cls.code} comes back as another class"
    codes = [getattr(errors, name).code for name in tree]
    assert len(codes) == len(set(codes)), "two classes share a code"
    from reverie import SessionMoved, StoreUnavailable

    assert issubclass(SessionMoved, StoreUnavailable)
    assert (SessionMoved.code, StoreUnavailable.code) == ("session.moved", "store.unavailable")


def test_client_import_does_not_load_the_daemon_machinery() -> None:
    code = "import sys, reverie.daemon.client; bad = [m for m in ('reverie.actors', 'reverie.store', 'apsw', 'lancedb', 'trio') if m in sys.modules]; print(bad)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_make_says_what_it_installs_and_keeps_pip_quiet() -> None:
    """Every pip step of `make run`/`make test` follows a line saying what it does."""
    out = subprocess.run(
        ["make", "-n", "-B", ".venv/.installed", ".venv/.installed-test", "run", "test"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    pips = [i for i, line in enumerate(out) if " -m pip install" in line]
    assert len(pips) >= 3, out
    for before, i in zip([-1, *pips], pips, strict=False):
        assert " -q " in out[i], out[i]
        steps = out[before + 1 : i]
        assert any(s.startswith("echo ") for s in steps), f"no announcement before {out[i]!r}"
    assert any(line.startswith("echo ") and "running the tests" in line for line in out)


def test_the_framework_adapters_are_extras_and_the_daemons_install_does_not_grow() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    frameworks = ("openai-agents", "langgraph", "langmem", "langchain", "nanobot-ai")
    assert not [d for d in project["dependencies"] if d.startswith(frameworks)]
    extras = project["optional-dependencies"]
    assert [d.split(">")[0] for d in extras["agents"]] == ["openai-agents"]
    assert [d.split(">")[0] for d in extras["langgraph"]] == ["langgraph"]
    assert [d.split("=")[0] for d in extras["nanobot"]] == ["nanobot-ai"]
    assert (
        "reverie[agents,langgraph,nanobot,postgres]" in extras["test"]
    )  # `make test` runs them for real
    assert not [d for d in project["dependencies"] if d.startswith("psycopg")]  # an extra too
