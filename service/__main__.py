"""``python -m hakem`` is the ``hakem`` command."""

import sys

from .cli import main

sys.exit(main())
