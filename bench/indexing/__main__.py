"""``python -m bench.indexing``: this suite alone, as ``python -m bench indexing`` runs it, writing no report."""

from bench.indexing import main

main()
