"""``python -m bench.cluster``: this suite alone, as ``python -m bench cluster`` runs it, writing no report."""

from bench.cluster import main

print(main().markdown())
