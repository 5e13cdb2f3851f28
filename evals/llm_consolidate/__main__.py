"""``python -m evals.llm_consolidate``: this suite alone, as ``python -m evals llm_consolidate`` runs it, writing no report."""

from evals.llm_consolidate import main

main()
