"""PyInstaller entry point: the frozen `gumshoe` executable is exactly the `gumshoe` console script."""

import sys

from desktop.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
