"""Signals the ground floor sends for the floors above (the audit record listens)."""

from django.dispatch import Signal

# A signed-in person chose to work in another town: request, previous (slug or ""), town.
town_switched = Signal()
