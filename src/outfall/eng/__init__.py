"""Hydrology and water quality engine; knows nothing of any town or bylaw."""
