"""Permit pages, one module per stage of the case; each module exports its `urlpatterns`."""
