"""``python -m bench.nanobot_compare``: this suite alone, as ``python -m bench nanobot_compare`` runs it, writing no report."""

from bench.nanobot_compare import main

main()
