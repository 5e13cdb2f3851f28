"""The installed package's version, without loading the daemon's machinery."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["package_version"]


def package_version() -> str:
    """The version pip installed (``0+unknown`` when run from an uninstalled tree)."""
    try:
        return version("reverie")
    except PackageNotFoundError:
        return "0+unknown"
