"""``python -m costchart._cli``: the ``costchart`` command, as the tests run it in a process."""

import sys

from costchart._cli import main

if __name__ == "__main__":
    sys.exit(main())
