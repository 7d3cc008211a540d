"""`python -m outfall` runs the command line."""

from outfall.cli.main import console

console()
