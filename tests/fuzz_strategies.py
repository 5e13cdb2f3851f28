"""Hypothesis strategies for the protocol fuzz tests: values leaning on the edges, any op's fields.

Each wire type gets values of its own type that sit on the edges (empty,
huge, non-UTF-8, deep, out of bounds) and values of other types; a
request's fields are drawn from its Struct's ``msgspec.inspect`` info.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec
from hypothesis import strategies as st

from tests.protocol_fuzz import MAX_FRAME

# -- strategies ----------------------------------------------------------------

INT64 = (-(2**63), 2**64 - 1)  # everything msgpack can carry
NAMES = ["s1", "fuzz:a", "ünï ☃", "../x", "scope/a"]  # valid names, so ops reach the actors

huge_ints = st.sampled_from([0, -1, 2**31, 2**53 + 1, 2**63 - 1, -(2**63), 2**63, 2**64 - 1])
ints = st.one_of(st.integers(-5, 1100), huge_ints, st.integers(*INT64))
floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-300, 1e300, -1.0, 3600.0, 3600.1, math.nan, math.inf]),
)
controls = st.text(st.characters(codec="utf-8", max_codepoint=0x1F), min_size=1, max_size=8)
big_text = st.tuples(
    st.sampled_from(["x", "\x00", "é", "☃", "\U0001f600"]),
    st.sampled_from([255, 256, 257, 4096, 100_000, 260_000, MAX_FRAME // 4 - 64, MAX_FRAME]),
).map(lambda cs: cs[0] * (cs[1] // len(cs[0].encode())))
texts = st.one_of(
    st.sampled_from(NAMES),
    st.sampled_from(["", "\x00", "a\x00b", "\ud7ff\ue000\ufffd", "\u202e", "'", '"', "*", "\\"]),
    st.text(max_size=40),
    controls,
    big_text,
)
# A msgpack str holding bytes that are not UTF-8 (a CESU surrogate, a lone continuation).
bad_utf8 = st.sampled_from([b"\xa3\xed\xa0\x80", b"\xa1\x80", b"\xa2\xc3\x28"]).map(msgspec.Raw)


def _ext() -> st.SearchStrategy[msgspec.msgpack.Ext]:
    return st.builds(msgspec.msgpack.Ext, st.integers(-128, 127), st.binary(max_size=16))


scalars = st.one_of(
    st.none(),
    st.booleans(),
    ints,
    floats,
    st.text(max_size=20),
    st.binary(max_size=32),
    _ext(),
)
keys = st.one_of(st.text(max_size=8), st.integers(-3, 3))


def values(max_leaves: int = 20) -> st.SearchStrategy[Any]:
    """Any msgpack value: nested arrays and maps (with non-string keys) of any scalar."""
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=5), st.dictionaries(keys, inner, max_size=5)
        ),
        max_leaves=max_leaves,
    )


def deep(depth: int) -> Any:
    value: Any = 0
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


deep_values = st.sampled_from([10, 100, 500]).map(deep)
# Nesting the encoder itself refuses to build: one-element arrays, as raw msgpack.
# Depths near the recursion limit (~1000) decode or not depending on the
# caller's own stack depth, so both sides keep clear of it.
deep_raw = st.sampled_from([10_000, 200_000]).map(lambda n: msgspec.Raw(b"\x91" * n + b"\xc0"))
anything = st.one_of(values(), deep_values, deep_raw)


def of_type(t: msgspec.inspect.Type) -> st.SearchStrategy[Any]:
    """Values of the right type for ``t``, leaning on the edges."""
    i = msgspec.inspect
    if isinstance(t, i.StrType):
        return texts
    if isinstance(t, i.BoolType):
        return st.booleans()
    if isinstance(t, i.IntType):
        return ints
    if isinstance(t, i.FloatType):
        return st.one_of(floats, ints)
    if isinstance(t, i.NoneType):
        return st.none()
    if isinstance(t, i.AnyType):
        return anything
    if isinstance(t, i.ListType):
        return st.lists(of_type(t.item_type), max_size=4)
    if isinstance(t, i.UnionType):
        return st.one_of(*[of_type(u) for u in t.types])
    if isinstance(t, i.LiteralType):  # the allowed values, and others the schema refuses
        return st.one_of(st.sampled_from(t.values), texts)
    if isinstance(t, i.StructType):
        return struct_map(t)
    raise AssertionError(f"no strategy for field type {t!r}; teach tests/protocol_fuzz.py")


#: Fields whose made-up values must not reach the host's file system: a backup ``dest``
#: is a directory the daemon creates wherever it may write, so it gets refused values only.
CONFINED = {
    ("Backup", "dest"): st.sampled_from(["", "relative/dir", "/", "/nonexistent-reverie-fuzz/x", 5])
}


@st.composite
def fields_of(draw: st.DrawFn, t: msgspec.inspect.StructType, skip: tuple[str, ...] = ()) -> dict:
    """A map for struct ``t``: each field right, wrong, or missing; sometimes extra keys."""
    out: dict[Any, Any] = {}
    mutate = draw(st.booleans())  # half the maps are well typed, so values reach the actors
    for field in t.fields:
        if field.name in skip:
            continue
        if not mutate:
            how = "right" if field.required else draw(st.sampled_from(["right", "missing"]))
        else:
            how = draw(st.sampled_from(["right"] * 4 + ["wrong", "missing", "bad_utf8"]))
        confined = CONFINED.get((t.cls.__name__, field.name))
        if confined is not None and how in ("right", "wrong"):
            out[field.encode_name] = draw(confined)
        elif how == "right":
            out[field.encode_name] = draw(of_type(field.type))
        elif how == "wrong":
            out[field.encode_name] = draw(anything)
        elif how == "bad_utf8":
            out[field.encode_name] = draw(bad_utf8)
    if mutate:
        out.update(draw(st.dictionaries(keys, scalars, max_size=2)))
    return out


def struct_map(t: msgspec.inspect.StructType) -> st.SearchStrategy[dict]:
    return fields_of(t)


def encode(value: Any) -> bytes:
    return msgspec.msgpack.encode(value)
