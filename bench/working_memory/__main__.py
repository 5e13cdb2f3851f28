"""``python -m bench.working_memory``: this suite alone, as ``python -m bench working_memory`` runs it, writing no report."""

import sys

from bench.working_memory import main

main(sys.argv[1:])
