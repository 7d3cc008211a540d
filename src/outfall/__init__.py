"""outfall: a Massachusetts town's stormwater bylaw (Norfolk Chapter 267 first) as code."""

__version__ = "0.1.0"
