"""``python -m bench.search_scale``: this suite alone, as ``python -m bench search_scale`` runs it, writing no report."""

from bench.search_scale import main

main()
