"""``python -m bench.search``: this suite alone, as ``python -m bench search`` runs it, writing no report."""

from bench.search import main

main()
