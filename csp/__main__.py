"""`python -m csp`: the same command line as the `csp` script, for when the
script is not on PATH (a venv not activated, `pip install --user`)."""

import sys

from csp.cli import main

if __name__ == "__main__":
    sys.exit(main())
