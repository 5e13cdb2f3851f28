"""systemd unit files for reverie: rendered from one set of templates, then installed.

The templates are package data in ``reverie/daemon/service/unit_templates/``
(system units at the top, ``user/`` for ``systemctl --user``); the
repository's ``systemd/`` folder is a symlink to that directory, so the
human-readable copy and what ``reverie install-units`` writes cannot drift
apart.

Templates hold two placeholders: ``@BINDIR@``, the directory of the installed
``reverie`` executable (units need an absolute path), and ``@DATADIR@``, the
data directory; by default ``%S/reverie``, the unit's ``StateDirectory=``
(``/var/lib/reverie``, or ``~/.local/state/reverie`` for a user unit).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import sys
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path

from reverie.config import ConfigError, default_data_dir

__all__ = ["check_visible", "install_units", "render_units"]

log = logging.getLogger(__name__)

_UNIT_NAMES = ("reverie.service", "reverie.socket")
_PLACEHOLDER = re.compile(r"@([A-Z]+)@")
_DEFAULT_DATA_DIR = "%S/reverie"
_SYSTEM_UNIT_DIR = Path("/etc/systemd/system")
# Characters that unit-file parsing would split on, unquote or expand
# ($VAR in ExecStart=), each with a different rule per setting: refuse them.
_UNSAFE_CHARS = frozenset("\"'\\$")
# What the units' hardening hides from the service: PrivateTmp=yes (both units)
# gives it empty /tmp and /var/tmp; ProtectHome=yes (system unit) hides homes.
_PRIVATE_TMP = (Path("/tmp"), Path("/var/tmp"))
_PROTECTED_HOME = (Path("/home"), Path("/root"), Path("/run/user"))


def render_units(*, user: bool, bindir: Path, data_dir: Path | None) -> dict[str, str]:
    """The unit files (file name → text) with every placeholder filled in.

    ``data_dir`` None keeps the ``StateDirectory=`` default. Paths must be
    absolute and free of whitespace, quotes, backslashes and ``$``; a ``%``
    is escaped so systemd does not read it as a specifier.
    """
    values = {
        "BINDIR": _unit_path(bindir, "bindir"),
        "DATADIR": _DEFAULT_DATA_DIR if data_dir is None else _unit_path(data_dir, "data dir"),
    }
    folder = files("reverie.daemon.service") / "unit_templates"
    if user:
        folder = folder / "user"
    return {
        name: _substitute((folder / name).read_text(encoding="utf-8"), values)
        for name in _UNIT_NAMES
    }


def install_units(*, user: bool, dest: Path | None = None) -> list[Path]:
    """Write the rendered units for the installed ``reverie`` and return their paths.

    ``dest`` defaults to the directory systemd reads administrator units from:
    ``$XDG_CONFIG_HOME/systemd/user`` (``~/.config/systemd/user``) for user
    units, ``/etc/systemd/system`` otherwise. Each file is replaced atomically,
    so a concurrent ``systemctl daemon-reload`` never reads half a unit. The
    caller still has to run ``systemctl [--user] daemon-reload``. An
    executable the unit's hardening would hide is a ``ConfigError``.
    """
    bindir = _installed_bindir()
    check_visible(bindir, user=user)
    target = dest if dest is not None else _default_unit_dir(user, os.environ)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    # A user daemon shares its data with `reverie serve` run by hand; the system one uses StateDirectory=.
    data_dir = default_data_dir() if user else None
    for name, text in render_units(user=user, bindir=bindir, data_dir=data_dir).items():
        path = target / name
        partial = target / f".{name}.tmp"
        partial.write_text(text, encoding="utf-8")
        partial.chmod(0o644)
        partial.replace(path)
        written.append(path)
    log.info("installed %s units in %s", "user" if user else "system", target)
    return written


def _default_unit_dir(user: bool, env: Mapping[str, str]) -> Path:
    if not user:
        return _SYSTEM_UNIT_DIR
    config_home = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config_home) / "systemd" / "user"


def _installed_bindir() -> Path:
    """The directory of the ``reverie`` console script this interpreter runs.

    The interpreter's own bin directory first (a virtualenv need not be on
    ``PATH`` for systemd), then ``PATH``.
    """
    beside = Path(sys.executable).absolute().parent / "reverie"
    if os.access(beside, os.X_OK):
        return beside.parent
    found = shutil.which("reverie")
    if found is None:
        raise ConfigError(
            f"no `reverie` executable next to {sys.executable} or on PATH; install reverie first"
        )
    return Path(found).absolute().parent


def check_visible(bindir: Path, *, user: bool) -> None:
    """Refuse an executable the unit's own hardening would hide from the service.

    A checkout's ``.venv`` under ``/home`` or ``/tmp`` is the usual case: the
    unit would be written, then fail at every start with a missing file.
    """
    hidden = _PRIVATE_TMP if user else _PRIVATE_TMP + _PROTECTED_HOME
    for root in hidden:
        if bindir.is_absolute() and bindir.is_relative_to(root):
            setting = "PrivateTmp=yes" if root in _PRIVATE_TMP else "ProtectHome=yes"
            raise ConfigError(
                f"reverie is installed in {bindir}, which the unit's {setting} hides from the "
                "service; install it outside (e.g. `python3 -m venv /opt/reverie && "
                "/opt/reverie/bin/pip install .`) and run that one's `reverie install-units`"
                + ("" if user else ", or use --user units")
            )


def _unit_path(path: Path, what: str) -> str:
    text = str(path)
    if not path.is_absolute():
        raise ConfigError(f"{what} {text!r} must be an absolute path in a unit file")
    if any(char.isspace() or char in _UNSAFE_CHARS for char in text):
        raise ConfigError(
            f"{what} {text!r} contains whitespace, a quote, a backslash or '$'; "
            "systemd units cannot carry it portably"
        )
    return text.replace("%", "%%")


def _substitute(template: str, values: Mapping[str, str]) -> str:
    def replace(match: re.Match[str]) -> str:
        return values[match.group(1)]

    return _PLACEHOLDER.sub(replace, template)
