"""``python -m tui``: the same as the ``clowder`` command."""

import sys

from tui.cli import main

sys.exit(main())
