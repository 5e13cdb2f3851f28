"""``reverie status`` and ``reverie metrics``: the daemon's health from a shell.

``status`` prints one aspect of the daemon a line (``--json`` prints the
dict as it came); ``metrics`` prints the same numbers in Prometheus text.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import msgspec

from ..protocol import DaemonStatus
from .cluster import summary
from .common import Common, Runner, counted

__all__ = ["STATUS_RUNNERS", "add_status_parsers", "render_status"]


def add_status_parsers(sub: Any, common: Common) -> None:
    """Register ``status`` and ``metrics``; ``common`` adds --socket and --json."""
    common(sub.add_parser("status", help="show the daemon's status"))
    common(sub.add_parser("metrics", help="print the status in Prometheus text format"))


def render_status(view: DaemonStatus) -> None:
    """Print ``reverie status`` for a person: one aspect of the daemon a line."""
    status: dict[str, Any] = msgspec.to_builtins(view)
    sessions = status["sessions"]
    store = status["store"]
    print(f"reverie {status['version']}  pid {status['pid']}  up {status['uptime_seconds']:.0f}s")
    print(f"socket    {status['socket']}")
    print(
        f"data      {status['data_dir']}  ({store['bytes']} bytes, durability {store['durability']})"
        if store["engine"] == "sqlite"
        else f"data      {store['where']}  (postgres, {store['bytes']} bytes)"
    )
    print(f"store     {store['writes']} writes in {store['batches']} batches")
    if view.cluster is not None:
        print(f"cluster   {view.cluster.member} ({view.cluster.role}); {summary(view.cluster)}")
    proc = status["process"]
    print(
        f"process   {proc['rss_bytes'] / 2**20:.0f} MiB resident (peak {proc['peak_rss_bytes'] / 2**20:.0f} MiB),"
        f" {proc['threads']} threads, {proc['open_files']} open files,"
        f" {proc.get('connections', 0)} connections"
    )
    print(
        f"memory    {proc['rss_anon_bytes'] / 2**20:.0f} MiB its own (C heap"
        f" {proc['heap_in_use_bytes'] / 2**20:.0f} MiB in use,"
        f" {proc['heap_free_bytes'] / 2**20:.0f} MiB free; Arrow"
        f" {proc['arrow_in_use_bytes'] / 2**20:.0f} MiB), {proc['rss_file_bytes'] / 2**20:.0f} MiB"
        " of files (the libraries' code)"
    )
    print(
        f"sessions  {sessions['live']} live, {sessions['passivated']} passivated, {sessions['known']} known"
    )
    depths = status.get("mailbox_depths", {})
    print(f"mailboxes {sum(depths.values())} queued in {counted(len(depths), 'session')}")
    for name, depth in sorted(depths.items()):
        print(f"mailbox   {name}: {depth} queued")
    index = status.get("index", {})
    if index.get("enabled"):
        print(
            f"index     {index['messages_behind']} messages behind ({index['seconds_behind']:.1f}s),"
            f" {index['indexed']} indexed"
        )
        if index.get("degraded"):
            print(f"index     DEGRADED: {index['degraded_reason']}")
    for backend, b in sorted(status.get("consolidation", {}).items()):
        jobs = ", ".join(f"{n} {state}" for state, n in sorted(b.get("jobs", {}).items()))
        print(
            f"consolidation {backend} ({b.get('kind', '?')}): {b.get('queued', 0)} queued, "
            f"{b.get('running', 0)} running, stored jobs [{jobs or 'none'}], "
            f"breaker {b.get('breaker', '?')}, {b.get('streams', 0)} streams"
        )
        outcomes = ", ".join(f"{n} {k}" for k, n in sorted(b.get("outcomes", {}).items()))
        llm = b.get("llm") or {}
        print(
            f"consolidation {backend}: probe {b.get('probe', '?')}; since start: jobs "
            f"[{outcomes}], {sum(llm.get('calls', {}).values())} calls "
            f"({b.get('failed_calls', 0)} failed), {llm.get('refused', 0)} not sent (breaker open)"
        )
    for scope, problems in sorted(status.get("memory", {}).get("problems", {}).items()):
        print(
            f"memory    {scope}: {counted(len(problems), 'problem')} (see: reverie memory show {scope})"
        )
    if "scopes" in status:
        print(f"scopes    {status['scopes'].get('live', 0)} live")
    if "log_level" in status:
        print(
            f"config    log level {status['log_level']}, {status.get('config_reloads', 0)} reloads"
        )
    errors = status.get("errors", {})
    if not errors:
        print("errors    none")
    for code, count in sorted(errors.items()):
        print(f"errors    {code}: {count}")


def _status(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return client.status(), render_status


def _metrics(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return client.metrics(), lambda text: print(text, end="")


STATUS_RUNNERS: dict[str, Runner] = {"status": _status, "metrics": _metrics}
