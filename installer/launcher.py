"""PyInstaller entry point: the frozen `gumshoe` executable is exactly the `gumshoe` console script."""

import multiprocessing
import sys

from desktop.__main__ import main

if __name__ == "__main__":
    # The camera reads tags in a worker process (vision.isolated, started with "spawn"): in a frozen
    # app that process is this executable again, and freeze_support() makes it the worker.
    multiprocessing.freeze_support()
    sys.exit(main())
