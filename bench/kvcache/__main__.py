"""``python -m bench.kvcache``: this suite alone, as ``python -m bench kvcache`` runs it, writing no report."""

from bench.kvcache import main

main()
