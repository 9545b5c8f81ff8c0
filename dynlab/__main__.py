"""``python -m dynlab``: the terminal entry point (see :mod:`dynlab.cli` for the subcommands).

``main(argv=None) -> int`` is also the ``dynlab`` console script's entry point.
"""

import sys

from dynlab.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
