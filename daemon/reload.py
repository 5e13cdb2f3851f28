"""Live configuration reload on SIGHUP.

On SIGHUP the daemon re-reads the same sources it started from (the config
file, the environment, the command-line flags) and copies the keys in
``RELOADABLE`` into the running configuration. The running ``Config`` is
mutated in place, so every component that holds a reference to its section
(the server, the handlers, the consolidator) sees the new values from its
next read: no component keeps a private copy of a reloadable key.

Guarantees: a reload is all or nothing. If the file does not parse or a
value is invalid, the error is logged and the old configuration stays in
force. Keys outside ``RELOADABLE`` that changed are named in a warning and
take effect only after a restart. What a reload leaves behind: limits apply
to the next request or connection, consolidation thresholds to the next
decision (a timer already armed keeps its deadline).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import msgspec

from reverie.config import Config, ConfigError

__all__ = ["RELOADABLE", "Reloader", "parse_log_level"]

log = logging.getLogger(__name__)

#: The keys SIGHUP changes in a running daemon, by section.
RELOADABLE: dict[str, tuple[str, ...]] = {
    "daemon": (
        "log_level",
        "allowed_uids",
        "allowed_gids",
        "max_in_flight",
        "max_connections",
        "max_message_bytes",
        "max_unread_bytes",
        "max_unread_bytes_total",
    ),
    "consolidation": (
        "idle_after",
        "budget_tokens",
        "target_tokens",
        "hard_tokens",
        "max_delay",
        "max_attempts",
    ),
    "index": ("max_backlog",),
}


def parse_log_level(name: str) -> int:
    level = logging.getLevelName(name.upper())
    if not isinstance(level, int):
        raise ConfigError(f"daemon.log_level = {name!r}; use debug, info, warning or error")
    return level


def _apply(current: Config, new: Config) -> list[str]:
    """Copy the reloadable keys that differ; return their dotted names."""
    changed = []
    for section, keys in RELOADABLE.items():
        running, loaded = getattr(current, section), getattr(new, section)
        for key in keys:
            value = getattr(loaded, key)
            if getattr(running, key) != value:
                setattr(running, key, value)
                changed.append(f"{section}.{key}")
    return changed


def _needs_restart(current: Config, new: Config) -> list[str]:
    old, fresh = msgspec.to_builtins(current), msgspec.to_builtins(new)
    return [
        f"{section}.{key}"
        for section, values in fresh.items()
        for key, value in values.items()
        if key not in RELOADABLE.get(section, ()) and old.get(section, {}).get(key) != value
    ]


class Reloader:
    """Applies reloads to ``config``; ``load`` builds a fresh ``Config`` from the same sources."""

    def __init__(self, config: Config, load: Callable[[], Config]) -> None:
        self.config = config
        self.load = load
        self.reloads = 0

    async def reload(self) -> list[str] | None:
        """One reload; the changed keys, or None when the new configuration was refused."""
        try:
            # One small local TOML file and the environment: read on the loop, as at start.
            new = self.load()
            level = parse_log_level(new.daemon.log_level)
        except ConfigError as exc:
            log.error("config reload failed, keeping the running configuration: %s", exc.message)
            return None
        restart = _needs_restart(self.config, new)
        changed = _apply(self.config, new)
        logging.getLogger().setLevel(level)
        self.reloads += 1
        log.info("config reloaded; changed: %s", ", ".join(changed) or "nothing")
        if restart:
            log.warning("config keys that take effect only after a restart: %s", ", ".join(restart))
        return changed
