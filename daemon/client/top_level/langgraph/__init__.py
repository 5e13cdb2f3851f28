"""reverie as a LangGraph store: ``pip install 'reverie[langgraph]'``.

``graph.compile(store=ReverieStore())`` keeps a graph's long-term items in
reverie's working memory, namespaces mapped to scopes (``namespace_scope``),
and LangMem's memory tools work on it unchanged. The guide:
docs/frameworks.md.

This package loads the client (never the daemon's machinery) and LangGraph.
"""

from __future__ import annotations

from .store import MAX_SCOPE_CHARS, REGISTRY_SCOPE, ReverieStore, namespace_scope

__all__ = ["MAX_SCOPE_CHARS", "REGISTRY_SCOPE", "ReverieStore", "namespace_scope"]
