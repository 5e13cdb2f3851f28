"""``python -m evals [NAME ...]``: the quality evaluations, one report (``bench/_runner.py``)."""

import sys

from bench._runner import EVALS, main

sys.exit(main(sys.argv[1:], EVALS))
