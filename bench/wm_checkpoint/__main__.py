"""``python -m bench.wm_checkpoint``: this suite alone, as ``python -m bench wm_checkpoint`` runs it, writing no report."""

import sys

from bench.wm_checkpoint import main

main(sys.argv[1:])
