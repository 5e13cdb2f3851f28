"""``python -m bench [NAME ...]``: the performance suites, one report (``bench/_runner.py``)."""

import sys

from bench._runner import main

sys.exit(main(sys.argv[1:]))
