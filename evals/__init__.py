"""reverie's quality evaluations: how well memory recalls and stays true, not how fast.

``python -m evals`` runs each module's ``main()`` in turn with the benchmarks'
runner (``bench/_runner.py``) and writes ``EVALS.md``; the speed suites are
``bench/`` (docs/design.md draws both).
"""
