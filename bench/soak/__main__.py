"""``python -m bench.soak``: this suite alone, as ``python -m bench soak`` runs it, writing no report."""

import sys

from bench.soak import main

main(sys.argv[1:])
