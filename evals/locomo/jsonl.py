"""The LoCoMo conversations as JSONL for ``reverie import``: a daemon to look at.

``python -m evals.locomo.jsonl <locomo.json> > locomo.jsonl`` writes every
turn as the recall benchmark appends it (one session per conversation, the
first speaker as ``user``, the other as ``assistant``, the turn's ``dia_id``
as its id), so ``reverie import locomo.jsonl`` fills a daemon with the same
sessions ``python -m evals locomo`` searches (docs/ui.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from evals.locomo.data import load


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_file():
        print("usage: python -m evals.locomo.jsonl <locomo.json> > locomo.jsonl", file=sys.stderr)
        return 2
    count = 0
    for conv in load(Path(argv[0])):
        roles: dict[str, str] = {}
        for turn in conv.turns:
            role = roles.setdefault(turn.speaker, "assistant" if roles else "user")
            line = {"session": conv.session, "role": role, "content": turn.text}
            print(json.dumps({**line, "id": turn.dia_id, "ts": turn.ts}, ensure_ascii=False))
            count += 1
    print(f"{count} turns", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
