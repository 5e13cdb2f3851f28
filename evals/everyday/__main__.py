"""``python -m evals.everyday``: this suite alone, as ``python -m evals everyday`` runs it, writing no report."""

from evals.everyday import main

main()
