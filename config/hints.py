"""What a configuration mistake most likely was: the key meant, the variable to set.

A misspelt key is refused (every section forbids unknown keys); these
helpers turn msgspec's message into one a person acts on, and find the
environment variables that look like settings but are never read
(``REVERIE_LOG_LEVEL`` for ``REVERIE_DAEMON__LOG_LEVEL``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

import msgspec

__all__ = ["env_variable", "misread_env", "suggestion", "toml_mistake"]

ENV_PREFIX = "REVERIE_"
#: Variables read by something other than the configuration (the client, ``reverie mcp``).
READ_ELSEWHERE = frozenset(
    {"REVERIE_SOCKET", "REVERIE_MCP_TOKEN", "REVERIE_LLM_API_KEY", "REVERIE_EMBEDDINGS_API_KEY"}
)
_UNKNOWN = re.compile(
    r"Object contains unknown field `(?P<name>[^`]+)`(?: - at `\$(?P<path>[^`]*)`)?"
)
_AT = re.compile(r" - at `\$(?P<path>[^`]*)`")
_TOML_AT = re.compile(r"\(at line (?P<line>\d+), column \d+\)")
#: How a TOML value that is not a string starts: a quote, a number, an array, a table.
_NOT_BARE = re.compile(r"""^(["'\[{+\-0-9]|true\b|false\b|inf\b|nan\b)""")


def toml_mistake(path: object, text: str, error: Exception) -> str:
    """A TOML syntax error with the file, its line as written and, for a value without
    quotes (``base_url = http://x``), the line as it should be.

    tomllib says only "Invalid value (at line 2, column 12)".
    """
    at = _TOML_AT.search(str(error))
    lines = text.splitlines()
    if at is None or not 0 < int(at["line"]) <= len(lines):
        return f"cannot read config file {path}: {error}"
    number = int(at["line"])
    line = lines[number - 1].strip()
    said = f"config file {path}, line {number}: {line!r}: {_TOML_AT.sub('', str(error)).strip()}"
    key, equals, value = line.partition("=")
    value = value.strip()
    if equals and value and not _NOT_BARE.match(value):
        return f'{said}; strings need quotes: {key.strip()} = "{value}"'
    return said


def _fields(tree: type[msgspec.Struct]) -> dict[str, list[str]]:
    """Section name -> its keys, for the config tree ``tree``."""
    sections = {}
    for field in msgspec.structs.fields(tree):
        section = field.type
        if isinstance(section, type) and issubclass(section, msgspec.Struct):
            sections[field.name] = [f.name for f in msgspec.structs.fields(section)]
    return sections


def suggestion(error: msgspec.ValidationError, tree: type[msgspec.Struct]) -> str:
    """`` (did you mean `x`?)`` for an unknown key close to a known one, else ""."""
    found = _UNKNOWN.search(str(error))
    if found is None:
        return ""
    sections = _fields(tree)
    section = (found["path"] or "").lstrip(".")
    known = sections.get(section, []) if section else list(sections)
    close = difflib.get_close_matches(found["name"], known, n=1, cutoff=0.6)
    return f" (did you mean `{close[0]}`?)" if close else ""


def env_variable(error: msgspec.ValidationError) -> str | None:
    """The ``REVERIE_SECTION__KEY`` variable a validation error of the environment is about."""
    text = str(error)
    if (unknown := _UNKNOWN.search(text)) is not None:
        parts = [*(unknown["path"] or "").lstrip(".").split("."), unknown["name"]]
    elif (at := _AT.search(text)) is not None:
        parts = at["path"].lstrip(".").split(".")
    else:
        return None
    if len(parts) != 2 or not all(parts):
        return None
    return f"{ENV_PREFIX}{parts[0].upper()}__{parts[1].upper()}"


def misread_env(env: Mapping[str, str], tree: type[msgspec.Struct]) -> list[str]:
    """A warning for each ``REVERIE_…`` variable that names a setting but is not read.

    Only names that match a key (``REVERIE_LOG_LEVEL``) or a section and key
    joined by one underscore (``REVERIE_DAEMON_LOG_LEVEL``) are reported:
    other ``REVERIE_`` variables (``REVERIE_SOCKET``) have their own readers.
    """
    meant: dict[str, list[str]] = {}
    for section, keys in _fields(tree).items():
        for key in keys:
            variable = f"{ENV_PREFIX}{section.upper()}__{key.upper()}"
            meant.setdefault(key, []).append(variable)
            meant[f"{section}_{key}"] = [variable]
    warnings = []
    for name in sorted(env):
        if not name.startswith(ENV_PREFIX) or "__" in name or name in READ_ELSEWHERE:
            continue
        variables = meant.get(name[len(ENV_PREFIX) :].lower())
        if variables:
            warnings.append(f"{name} is not read; did you mean {' or '.join(variables)}?")
    return warnings
