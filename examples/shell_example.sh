#!/usr/bin/env bash
# reverie from a shell: append turns, read the prompt context and the history,
# consolidate the session into memory and show it. The daemon's socket comes
# from $REVERIE_SOCKET (or the default); the session from $1. The command is
# $REVERIE, else the checkout's .venv/bin/reverie (`make run` made it), else
# `reverie` on PATH. Run: bash examples/shell_example.sh
set -euo pipefail

session="${1:-shell:demo}"
here=$(dirname "$0")
if [[ -n "${REVERIE:-}" ]]; then
    reverie=$REVERIE
elif [[ -x "$here/../.venv/bin/reverie" ]]; then
    reverie="$here/../.venv/bin/reverie"
else
    reverie=reverie
fi

"$reverie" append "$session" user "I live in Lisbon and work nights." --id "$session:1" --scope shell
"$reverie" append "$session" assistant "Noted: Lisbon, night shifts." --id "$session:2"
# Appending the same id again is a no-op: safe to retry.
"$reverie" append "$session" user "I live in Lisbon and work nights." --id "$session:1"

echo "== context"
"$reverie" context "$session"

echo "== history"
"$reverie" history "$session" --json

echo "== consolidate"
"$reverie" consolidate "$session"
"$reverie" memory show shell
