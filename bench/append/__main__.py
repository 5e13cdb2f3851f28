"""``python -m bench.append``: this suite alone, as ``python -m bench append`` runs it, writing no report."""

from bench.append import main

main()
