#!/usr/bin/env bash
# reverie from a shell: append turns, read the prompt context and the history,
# and consolidate if this reverie has the command. The daemon's socket comes
# from $REVERIE_SOCKET (or the default); the session from $1.
set -euo pipefail

session="${1:-shell:demo}"
reverie=${REVERIE:-reverie}

"$reverie" append "$session" user "I live in Lisbon and work nights." --id "$session:1" --scope shell
"$reverie" append "$session" assistant "Noted: Lisbon, night shifts." --id "$session:2"
# Appending the same id again is a no-op: safe to retry.
"$reverie" append "$session" user "I live in Lisbon and work nights." --id "$session:1"

echo "== context"
"$reverie" context "$session"

echo "== history"
"$reverie" history "$session" --json

if "$reverie" consolidate --help >/dev/null 2>&1; then
    echo "== consolidate"
    "$reverie" consolidate "$session"
else
    echo "== consolidate: not available in this reverie"
fi
