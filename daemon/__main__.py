"""``python -m reverie.daemon`` is the ``reverie`` command."""

import sys

from .cli import main

sys.exit(main())
