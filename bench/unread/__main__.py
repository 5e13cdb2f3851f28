"""``python -m bench.unread``: this suite alone, as ``python -m bench unread`` runs it, writing no report."""

from bench.unread import main

main()
