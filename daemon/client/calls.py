"""Client operations defined once, typed for both transports.

An operation is a function that builds a ``Call`` (the request, how to turn
the reply into the result, whether a retry is safe), decorated with ``op``.
``op`` is a descriptor: on a ``Client`` the method returns the result, on an
``AsyncClient`` an awaitable of it, and a type checker or an editor sees
exactly that (``client.append(...)`` is an ``Ack``, so ``ack.seq``
completes). The result types are the wire Structs of ``protocol`` (and of
``protocol.working_memory``, ``protocol.search``).

This module imports neither the actors nor the store.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import (
    Any,
    Concatenate,
    Generic,
    NamedTuple,
    ParamSpec,
    TypeVar,
    get_args,
    get_type_hints,
    overload,
)

from ..protocol import Request

__all__ = ["Async", "Blocking", "Call", "op"]

P = ParamSpec("P")
T = TypeVar("T")


class Call(NamedTuple, Generic[T]):
    """One request, the reply's conversion to the caller's result, and retry safety."""

    request: Request
    convert: Callable[[Any], T]
    idempotent: bool = True


class Blocking:
    """The base of a client whose operations return their result (``Client``).

    The transports name their kind here, below ``op``, so that ``op`` can type
    its methods without importing the clients that use it (httpx's
    ``BaseClient`` / ``Client`` / ``AsyncClient`` point one way likewise).
    """


class Async:
    """The base of a client whose operations return an awaitable of it (``AsyncClient``)."""


class op(Generic[P, T]):
    """Bind a ``Call`` builder as a blocking (``Blocking``) or async (``Async``) method."""

    def __init__(self, build: Callable[Concatenate[Any, P], Call[T]]) -> None:
        self._build = build
        functools.update_wrapper(self, build)  # type: ignore[arg-type]  # copies __doc__, __name__
        signature = inspect.signature(build)
        # What help() and editors show for a bound method: no ``self``, and the
        # result the caller gets (``Ack``), not the ``Call`` that builds it.
        self._signature = signature.replace(
            parameters=list(signature.parameters.values())[1:],
            return_annotation=_result_type(build),
        )

    @overload
    def __get__(self, obj: None, owner: type) -> op[P, T]: ...
    @overload
    def __get__(self, obj: Async, owner: type) -> Callable[P, Awaitable[T]]: ...
    @overload
    def __get__(self, obj: Blocking, owner: type) -> Callable[P, T]: ...
    def __get__(self, obj: Any, owner: type) -> Any:
        if obj is None:
            return self
        build = self._build

        @functools.wraps(build)
        def bound(*args: Any, **kwargs: Any) -> Any:
            call = build(obj, *args, **kwargs)
            return obj._call(call.request, call.convert, call.idempotent)

        bound.__signature__ = self._signature  # type: ignore[attr-defined]
        return bound


def _result_type(build: Callable[..., Any]) -> Any:
    """``T`` of the builder's ``Call[T]`` return annotation; empty where it cannot be resolved."""
    try:
        hint = get_type_hints(build).get("return")
    except NameError:  # a name imported only for type checkers
        return inspect.Signature.empty
    args = get_args(hint)
    return args[0] if args else inspect.Signature.empty
