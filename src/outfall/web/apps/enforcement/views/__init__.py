"""Enforcement pages, one module per concern; each exports its `urlpatterns`."""
