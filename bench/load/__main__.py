"""``python -m bench.load``: this suite alone, as ``python -m bench load`` runs it, writing no report."""

from bench.load import main

main()
