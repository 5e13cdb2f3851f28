"""``reverie wm …``: working memory from a shell.

Values (``wm set``, ``--data``) are parsed as JSON, so ``42``, ``'"text"'``
and ``'{"a": [1]}'`` keep their types; text that is not JSON is refused
rather than guessed at. Every command takes ``--json`` for
machine-readable output.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from reverie.config import InvalidArgument

from ..protocol.frames import Count
from .common import BoundedInt, Common, Runner, counted

__all__ = ["WM_RUNNERS", "add_wm_parser"]


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidArgument(
            f"{text!r} is not JSON ({exc.msg}); quote text as JSON, e.g. '\"hello\"'"
        ) from None


def _when(ts: float | None) -> str:
    return "-" if ts is None else datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=repr)


def _print_task(t: Any) -> None:
    print(f"{t.task_id}  {t.status}  step {t.step}/{t.total_steps}  {t.progress}%")
    print(f"  {t.description}")
    if t.data is not None:
        print(f"  data: {_dumps(t.data)}")


# -- runners: each returns (result, how to print it as text) --------------------


def _set(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    version = c.wm_set(
        a.scope, a.key, _json_value(a.value), ttl=a.ttl, expected_version=a.expected_version
    )
    return version, lambda v: print(f"{a.key} = version {v}")


def _get(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    def render(item: Any) -> None:
        print(_dumps(item.value))
        if a.inherit:  # which scope answered; stderr keeps stdout the bare value
            print(f"(from scope {item.scope}, version {item.version})", file=sys.stderr)

    return c.wm_get(a.scope, a.key, inherit=a.inherit), render


def _delete(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.wm_delete(a.scope, a.key), lambda d: print("deleted" if d else "not found")


def _render_keys(keys: list[Any]) -> None:
    for k in keys:
        print(f"{k.key}  v{k.version}  expires {_when(k.expires_at)}")


def _list(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.wm_list(a.scope, prefix=a.prefix), _render_keys


def _clear(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.wm_clear(a.scope), lambda n: print(f"{counted(n, 'key')} deleted")


def _stats(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.wm_stats(a.scope), lambda s: print(
        f"keys {s.keys}  bytes {s.bytes}  checkpoints {s.checkpoints}  expired swept {s.expired_swept}"
    )


def _task_get(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.task_get(a.scope), _print_task


def _task_set(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    data = None if a.data is None else _json_value(a.data)
    task = c.task_set(a.scope, a.task_id, a.description, a.status, a.step, a.total_steps, data)
    return task, _print_task


def _task_update(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    given = {
        f: getattr(a, f)
        for f in ("task_id", "description", "status", "step", "total_steps")
        if getattr(a, f) is not None
    }
    if a.data is not None:
        given["data"] = _json_value(a.data)
    return c.task_update(a.scope, **given), _print_task


def _scratch_append(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.scratch_append(a.scope, a.text), lambda r: print(
        f"line {r.n}" + (f" ({r.dropped} oldest dropped)" if r.dropped else "")
    )


def _render_scratch(entries: list[Any]) -> None:
    for e in entries:
        print(f"{e.n:>5}  {e.text}")


def _scratch_get(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.scratch_get(a.scope, last=a.last), _render_scratch


def _scratch_clear(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.scratch_clear(a.scope), lambda n: print(f"{counted(n, 'line')} deleted")


def _cp_create(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.checkpoint_create(a.scope, label=a.label), print


def _cp_restore(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.checkpoint_restore(a.scope, a.id), lambda n: print(f"restored ({counted(n, 'key')})")


def _render_checkpoints(checkpoints: list[Any]) -> None:
    for cp in checkpoints:
        print(
            f"{cp.id}  {_when(cp.created)}  {counted(cp.size, 'byte')}  {cp.label or ''}".rstrip()
        )


def _cp_list(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.checkpoint_list(a.scope), _render_checkpoints


def _cp_delete(c: Any, a: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return c.checkpoint_delete(a.scope, a.id), lambda i: print(f"deleted {i}")


# -- parsers ----------------------------------------------------------------------


def _leaf(
    sub: Any, name: str, help: str, run: Runner, common: Common, *args: str
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help)
    parser.add_argument("scope", help="e.g. global, project/<p>/agent/<a>/session/<s>")
    for arg in args:
        parser.add_argument(arg)
    common(parser)
    parser.set_defaults(wm_run=run)
    return parser


def _add_task(sub: Any, common: Common) -> None:
    task = sub.add_parser("task", help="the scope's task state").add_subparsers(
        dest="wm_task", required=True, metavar="ACTION"
    )
    _leaf(task, "get", "print the task", _task_get, common)
    set_ = _leaf(task, "set", "replace the task", _task_set, common, "task_id", "description")
    set_.add_argument("--status", default="pending")
    set_.add_argument("--step", type=BoundedInt.of(Count), default=0)
    set_.add_argument("--total-steps", type=BoundedInt.of(Count), default=0)
    set_.add_argument("--data", help="JSON")
    update = _leaf(task, "update", "change some fields", _task_update, common)
    update.add_argument("--task-id")
    update.add_argument("--description")
    update.add_argument("--status")
    update.add_argument("--step", type=BoundedInt.of(Count))
    update.add_argument("--total-steps", type=BoundedInt.of(Count))
    update.add_argument("--data", help="JSON")


def _add_scratch(sub: Any, common: Common) -> None:
    scratch = sub.add_parser("scratch", help="the scope's scratchpad").add_subparsers(
        dest="wm_scratch", required=True, metavar="ACTION"
    )
    _leaf(scratch, "append", "append a line", _scratch_append, common, "text")
    get = _leaf(scratch, "get", "print the lines, oldest first", _scratch_get, common)
    get.add_argument("--last", type=BoundedInt.of(Count), help="only the newest N lines")
    _leaf(scratch, "clear", "delete every line", _scratch_clear, common)


def _add_checkpoint(sub: Any, common: Common) -> None:
    cp = sub.add_parser("checkpoint", help="snapshots of a scope").add_subparsers(
        dest="wm_checkpoint", required=True, metavar="ACTION"
    )
    create = _leaf(cp, "create", "snapshot keys, task and scratchpad", _cp_create, common)
    create.add_argument("--label")
    _leaf(cp, "restore", "make the scope as checkpointed", _cp_restore, common, "id")
    _leaf(cp, "list", "checkpoints, newest first", _cp_list, common)
    _leaf(cp, "delete", "delete a checkpoint", _cp_delete, common, "id")


def add_wm_parser(sub: Any, common: Common) -> None:
    """Register ``reverie wm``; ``common`` adds --socket and --json to each command."""
    wm = sub.add_parser("wm", help="working memory: keys, task, scratchpad, checkpoints")
    actions = wm.add_subparsers(dest="wm_command", required=True, metavar="ACTION")
    set_ = _leaf(actions, "set", "set a key (VALUE is JSON)", _set, common, "key", "value")
    set_.add_argument("--ttl", type=float, help="expire after this many seconds")
    set_.add_argument(
        "--expected-version", type=BoundedInt.of(Count), help="compare-and-set (0: must not exist)"
    )
    get = _leaf(actions, "get", "print a key's value", _get, common, "key")
    get.add_argument("--inherit", action="store_true", help="fall back to ancestors, then global")
    _leaf(actions, "delete", "delete a key", _delete, common, "key")
    ls = _leaf(actions, "list", "list keys", _list, common)
    ls.add_argument("--prefix", default="")
    _leaf(actions, "clear", "delete every key of the scope", _clear, common)
    _leaf(actions, "stats", "key count, bytes, checkpoints, expired keys swept", _stats, common)
    _add_task(actions, common)
    _add_scratch(actions, common)
    _add_checkpoint(actions, common)


def _run_wm(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    runner: Runner = args.wm_run
    return runner(client, args)


WM_RUNNERS: dict[str, Runner] = {"wm": _run_wm}
