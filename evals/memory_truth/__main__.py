"""``python -m evals.memory_truth``: this suite alone, as ``python -m evals memory_truth`` runs it, writing no report."""

from evals.memory_truth import main

main()
