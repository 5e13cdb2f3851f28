"""``python -m bench.idle_memory``: this suite alone, as ``python -m bench idle_memory`` runs it, writing no report."""

from bench.idle_memory import main

main()
