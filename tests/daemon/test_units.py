"""Unit files: rendered from the one set of templates, complete, and accepted by systemd."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from reverie.config import ConfigError, DaemonConfig, default_data_dir
from reverie.daemon.service.units import check_visible, install_units, render_units

REPO = Path(__file__).resolve().parents[2]

_SHARED = {
    "Type": "notify",
    "NotifyAccess": "main",
    "WatchdogSec": "30",
    "Restart": "on-failure",
    "KillSignal": "SIGTERM",
    "StateDirectory": "reverie",
    "StateDirectoryMode": "0700",
    "RuntimeDirectory": "reverie",
    "RuntimeDirectoryPreserve": "yes",
    "UMask": "0077",
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ReadWritePaths": "%S/reverie",
    "PrivateTmp": "yes",
    "PrivateDevices": "yes",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6",
    "RestrictNamespaces": "yes",
    "LockPersonality": "yes",
    "SystemCallArchitectures": "native",
}


def _directives(text: str) -> dict[str, list[str]]:
    """Every ``Key=value`` of a unit, comments and section headers skipped."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        found.setdefault(key, []).append(value)
    return found


def _exec_start(service: str) -> list[str]:
    (line,) = _directives(service)["ExecStart"]
    return shlex.split(line)


@pytest.mark.parametrize("user", [False, True], ids=["system", "user"])
def test_rendered_units_fill_every_placeholder(user: bool) -> None:
    units = render_units(user=user, bindir=Path("/opt/reverie/bin"), data_dir=None)
    assert sorted(units) == ["reverie.service", "reverie.socket"]
    for text in units.values():
        assert re.search(r"@[A-Z]+@", text) is None


@pytest.mark.parametrize("user", [False, True], ids=["system", "user"])
def test_service_is_notify_type_with_watchdog_and_hardening(user: bool) -> None:
    service = _directives(
        render_units(user=user, bindir=Path("/usr/bin"), data_dir=None)["reverie.service"]
    )
    assert {key: service.get(key) for key in _SHARED} == {
        key: [value] for key, value in _SHARED.items()
    }
    assert "MemoryDenyWriteExecute" not in service
    (timeout,) = service["TimeoutStopSec"]
    assert float(timeout) > DaemonConfig().grace_seconds


def test_system_units_listen_in_run_for_the_reverie_group() -> None:
    units = render_units(user=False, bindir=Path("/opt/reverie/bin"), data_dir=None)
    service = _directives(units["reverie.service"])
    sock = _directives(units["reverie.socket"])
    assert _exec_start(units["reverie.service"]) == [
        "/opt/reverie/bin/reverie",
        "serve",
        "--data-dir",
        "%S/reverie",
        "--socket",
        "/run/reverie/reverie.sock",
    ]
    assert service["ProtectHome"] == ["yes"]
    assert service["User"] == service["Group"] == ["reverie"]
    assert service["WantedBy"] == ["multi-user.target"]
    assert sock["ListenStream"] == ["/run/reverie/reverie.sock"]
    assert sock["SocketMode"] == ["0660"]
    assert sock["SocketGroup"] == ["reverie"]
    assert sock["Service"] == ["reverie.service"]


def test_user_units_listen_in_the_runtime_dir_and_keep_home_readable() -> None:
    units = render_units(user=True, bindir=Path("/home/ada/.venv/bin"), data_dir=None)
    service = _directives(units["reverie.service"])
    sock = _directives(units["reverie.socket"])
    assert _exec_start(units["reverie.service"]) == [
        "/home/ada/.venv/bin/reverie",
        "serve",
        "--data-dir",
        "%S/reverie",
        "--socket",
        "%t/reverie.sock",
    ]
    assert "ProtectHome" not in service
    assert "User" not in service
    assert service["WantedBy"] == ["default.target"]
    assert sock["ListenStream"] == [
        "%t/reverie.sock"
    ]  # $XDG_RUNTIME_DIR/reverie.sock: the clients' default
    assert sock["SocketMode"] == ["0600"]
    assert "SocketGroup" not in sock
    assert sock["Service"] == ["reverie.service"]


def test_a_chosen_data_dir_is_used_and_percent_escaped() -> None:
    units = render_units(user=False, bindir=Path("/usr/bin"), data_dir=Path("/srv/100%memory"))
    service = units["reverie.service"]
    assert _exec_start(service)[3] == "/srv/100%%memory"
    assert _directives(service)["ReadWritePaths"] == ["/srv/100%%memory"]


@pytest.mark.parametrize(
    ("bindir", "data_dir"),
    [
        (Path("bin"), None),
        (Path("/usr/bin"), Path("relative/data")),
        (Path("/opt/my tools/bin"), None),
        (Path("/usr/bin"), Path("/srv/$HOME")),
        (Path("/usr/bin"), Path('/srv/"quoted"')),
    ],
    ids=["relative-bindir", "relative-data-dir", "space", "dollar", "quote"],
)
def test_paths_units_cannot_carry_are_config_errors(bindir: Path, data_dir: Path | None) -> None:
    with pytest.raises(ConfigError):
        render_units(user=False, bindir=bindir, data_dir=data_dir)


def test_repo_systemd_folder_is_the_packaged_templates() -> None:
    """The human-readable copy is the package data itself, so it cannot drift."""
    templates = Path(str(files("reverie.daemon.service") / "unit_templates")).resolve()
    assert (REPO / "systemd").resolve() == templates
    assert (templates / "reverie.service").is_file()
    assert (templates / "user" / "reverie.socket").is_file()


def _hidden_from_units() -> str | None:
    """Why this checkout's ``reverie`` cannot be installed as units (under /tmp), or None.

    A checkout under ``/tmp`` is hidden by ``PrivateTmp=yes``; there the
    install tests check the refusal instead of the written files.
    """
    try:
        check_visible(Path(sys.executable).absolute().parent, user=True)
    except ConfigError as exc:
        return exc.message
    return None


def test_install_units_points_at_the_installed_executable(tmp_path: Path) -> None:
    dest = tmp_path / "units"
    if (hidden := _hidden_from_units()) is not None:
        with pytest.raises(ConfigError, match="PrivateTmp=yes"):
            install_units(user=True, dest=dest)
        assert not dest.exists(), hidden
        return
    written = install_units(user=True, dest=dest)
    assert written == [dest / "reverie.service", dest / "reverie.socket"]
    assert sorted(path.name for path in dest.iterdir()) == ["reverie.service", "reverie.socket"]
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
    executable = Path(_exec_start(written[0].read_text(encoding="utf-8"))[0])
    assert executable.is_absolute()
    assert os.access(executable, os.X_OK)
    assert executable.parent == Path(sys.executable).absolute().parent
    expected = render_units(user=True, bindir=executable.parent, data_dir=default_data_dir())
    assert {path.name: path.read_text(encoding="utf-8") for path in written} == expected


def test_install_user_units_default_to_xdg_config_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    if _hidden_from_units() is not None:
        with pytest.raises(ConfigError, match="PrivateTmp=yes"):
            install_units(user=True)
        return
    written = install_units(user=True)
    assert {path.parent for path in written} == {tmp_path / "config" / "systemd" / "user"}
    assert all(path.is_file() for path in written)


def _verify(
    units: dict[str, str], tmp_path: Path, *, user: bool
) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    unit_dir = tmp_path / "units"
    unit_dir.mkdir()
    for name, text in units.items():
        (unit_dir / name).write_text(text, encoding="utf-8")
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    return subprocess.run(
        [
            analyze,
            *(["--user"] if user else []),
            "verify",
            "--man=no",
            str(unit_dir / "reverie.socket"),
            str(unit_dir / "reverie.service"),
        ],
        env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _fake_bindir(tmp_path: Path) -> Path:
    """systemd-analyze checks that ExecStart= names an existing executable."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    executable = bindir / "reverie"
    executable.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    executable.chmod(0o755)
    return bindir


@pytest.mark.parametrize("user", [False, True], ids=["system", "user"])
def test_systemd_analyze_verify_accepts_rendered_units(tmp_path: Path, user: bool) -> None:
    units = render_units(user=user, bindir=_fake_bindir(tmp_path), data_dir=None)
    result = _verify(units, tmp_path, user=user)
    complaints = [line for line in result.stderr.splitlines() if "reverie" in line]
    assert result.returncode == 0, result.stderr
    assert complaints == []


def test_systemd_analyze_verify_rejects_a_missing_executable(tmp_path: Path) -> None:
    """Proves the verify test above has teeth in this environment."""
    units = render_units(user=False, bindir=tmp_path / "nowhere", data_dir=None)
    result = _verify(units, tmp_path, user=False)
    assert result.returncode != 0
    assert "reverie" in result.stderr


@pytest.mark.parametrize(
    ("user", "bindir", "setting"),
    [
        (False, Path("/home/ana/reverie/.venv/bin"), "ProtectHome=yes"),
        (False, Path("/root/reverie/.venv/bin"), "ProtectHome=yes"),
        (False, Path("/tmp/reverie/.venv/bin"), "PrivateTmp=yes"),
        (True, Path("/var/tmp/r/.venv/bin"), "PrivateTmp=yes"),
    ],
)
def test_an_executable_the_hardening_hides_is_refused(
    user: bool, bindir: Path, setting: str
) -> None:
    with pytest.raises(ConfigError, match=setting) as caught:
        check_visible(bindir, user=user)
    assert str(bindir) in caught.value.message and "/opt/reverie" in caught.value.message


def test_user_units_may_run_from_a_home_checkout() -> None:
    check_visible(Path("/home/ana/reverie/.venv/bin"), user=True)
    check_visible(Path("/opt/reverie/bin"), user=False)
    units = render_units(user=True, bindir=Path("/home/ana/reverie/.venv/bin"), data_dir=None)
    assert "ExecStart=/home/ana/reverie/.venv/bin/reverie serve" in units["reverie.service"]


@pytest.mark.parametrize("user", [False, True])
def test_substitution_leaves_the_comments_alone(user: bool) -> None:
    units = render_units(user=user, bindir=Path("/opt/rv/bin"), data_dir=None)
    for text in units.values():
        comments = [line for line in text.splitlines() if line.startswith("#")]
        assert not [c for c in comments if "/opt/rv/bin" in c], comments
        assert "@" not in text.replace("%S", "")


def test_install_units_with_dest_prints_paths_and_no_systemctl_hint(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "reverie.daemon",
            "install-units",
            "--user",
            "--dest",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if (hidden := _hidden_from_units()) is not None:
        assert (out.returncode, out.stderr.strip()) == (2, f"reverie: {hidden}")
        return
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        str(tmp_path / "reverie.service"),
        str(tmp_path / "reverie.socket"),
    ]
