"""``python -m evals.recall``: this suite alone, as ``python -m evals recall`` runs it, writing no report."""

from evals.recall import main

main()
