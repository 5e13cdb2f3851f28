"""``python -m bench.agents_prompt``: this suite alone, as ``python -m bench agents_prompt`` runs it, writing no report."""

from bench.agents_prompt import main

main()
