"""``python -m bench.supervisor``: this suite alone, as ``python -m bench supervisor`` runs it, writing no report."""

from bench.supervisor import main

main()
