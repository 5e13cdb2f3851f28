"""``python -m bench.consolidate``: this suite alone, as ``python -m bench consolidate`` runs it, writing no report."""

from bench.consolidate import main

main()
