"""``python -m bench.startup``: this suite alone, as ``python -m bench startup`` runs it, writing no report."""

from bench.startup import main

main()
