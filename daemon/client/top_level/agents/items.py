"""The OpenAI Agents SDK's items as reverie messages, and back, exactly.

An item (``TResponseInputItem``: a JSON object) becomes one message whose
role and content keep reverie's consolidation and search meaningful, while
the item itself comes back byte for byte equal:

==========================================  ======  ===========================
item                                        role    content
==========================================  ======  ===========================
``{"role": "user", "content": "..."}``      user    the text
``role`` system or developer                system  the text
an assistant message (``output_text``)      assistant  its text parts, joined
``function_call`` and other tool calls      assistant  "" (the call is the item)
``function_call_output`` (``*_output``)     tool    the output (``tool_call_id``:
                                                    its ``call_id``)
``reasoning`` and anything else             assistant  its text parts, if any
==========================================  ======  ===========================

An item that is exactly ``{"role": r, "content": text}`` (r user, system or
assistant) or ``{"type": "function_call_output", "call_id": c, "output":
text}`` is rebuilt from the message's own fields; any other is kept whole in
the message's ``tool_calls`` as ``{"openai_agents_item": item}`` (a JSON
object, where tool calls of other hosts are lists), which consolidation
shows the model as the tool call it usually is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from reverie.config.errors import InvalidArgument
from reverie.daemon.protocol import Message, MessageIn, Role

__all__ = ["ITEM_KEY", "item_id", "stored_bytes", "to_item", "to_message"]

#: The key of ``tool_calls`` that holds an item kept whole.
ITEM_KEY = "openai_agents_item"
_ROLES: dict[str, Role] = {
    "user": "user",
    "system": "system",
    "developer": "system",
    "assistant": "assistant",
}
_PLAIN_ROLES = ("user", "system", "assistant")


def _canonical(item: Mapping[str, Any]) -> str:
    return json.dumps(item, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def item_id(batch: str, n: int, item: Mapping[str, Any]) -> str:
    """The message id of item ``n`` of the add ``batch`` (an id the session makes per add):
    a retry of that add sends the same ids wherever the session's end has moved meanwhile,
    so the daemon stores nothing twice, while the same item in another add is new."""
    digest = hashlib.sha256(_canonical(item).encode()).hexdigest()[:16]
    return f"oa-{batch}-{n}-{digest}"


def stored_bytes(message: MessageIn) -> int:
    """What a message costs the daemon: its content and the item kept whole, in UTF-8."""
    kept = 0 if message.tool_calls is None else len(_canonical(message.tool_calls).encode())
    return len(message.content.encode()) + kept


def _text(content: Any) -> str:
    """The text of a content field: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for part in content:
        if isinstance(part, Mapping):
            text = part.get("text", part.get("refusal"))
            if isinstance(text, str):
                parts.append(text)
    return "\n".join(parts)


def _summary(item: Mapping[str, Any]) -> str:
    """A reasoning item's summary texts, or the text parts of any other item."""
    return _text(item.get("summary")) or _text(item.get("content"))


def to_message(n: int, item: object, batch: str) -> MessageIn:
    """Item ``n`` of the add ``batch`` as a message; ``InvalidArgument`` if it is not an item
    the session can store (not a JSON object with a ``type`` or a ``role``)."""
    if not isinstance(item, Mapping):
        raise InvalidArgument(
            f"item {n} is a {type(item).__name__}; a session stores the SDK's items, JSON objects"
        )
    try:
        mid = item_id(batch, n, item)  # its JSON text: what is not JSON fails here
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"item {n} is not JSON: {exc}") from exc
    kind, role = item.get("type"), item.get("role")
    if kind in (None, "message") and role in _ROLES:
        text = _text(item.get("content"))
        exact = kind is None and role in _PLAIN_ROLES and item == {"role": role, "content": text}
        return MessageIn(
            role=_ROLES[role],
            content=text,
            id=mid,
            tool_calls=None if exact else {ITEM_KEY: dict(item)},
        )
    if not isinstance(kind, str):
        raise InvalidArgument(
            f"item {n} has neither a 'type' nor a known 'role' (user, system, developer,"
            " assistant); it is not an item of the Agents SDK"
        )
    if kind.endswith("_output") and isinstance(item.get("call_id"), str):
        output = item.get("output")
        text = output if isinstance(output, str) else _canonical({"output": output})
        exact = item == {"type": "function_call_output", "call_id": item["call_id"], "output": text}
        return MessageIn(
            role="tool",
            content=text,
            id=mid,
            tool_call_id=item["call_id"],
            tool_calls=None if exact else {ITEM_KEY: dict(item)},
        )
    return MessageIn(
        role="assistant", content=_summary(item), id=mid, tool_calls={ITEM_KEY: dict(item)}
    )


def to_item(message: Message) -> dict[str, Any]:
    """The item a stored message holds (messages other hosts wrote read as plain ones)."""
    kept = message.tool_calls
    if isinstance(kept, dict) and isinstance(kept.get(ITEM_KEY), dict):
        return dict(kept[ITEM_KEY])
    if message.role == "tool" and message.tool_call_id is not None:
        return {
            "type": "function_call_output",
            "call_id": message.tool_call_id,
            "output": message.content,
        }
    return {"role": message.role, "content": message.content}
