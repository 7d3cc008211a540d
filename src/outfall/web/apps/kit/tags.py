"""Template tags every case page's panels are made with: the panel a selector lays out for the
user of the request (`{% construction_panel_for application as cp %}`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import template


def request_user(context) -> Any:
    """The user the page is rendered for: the request's, else the context's."""
    request = context.get("request")
    return getattr(request, "user", None) or context.get("user")


def register_panel(register: template.Library, name: str, selector: Callable) -> None:
    """Register `{% <name> record as var %}`: `selector(user, record)` for the request's user."""

    def panel(context, record):
        return selector(request_user(context), record)

    panel.__name__ = name
    panel.__doc__ = f"`{{% {name} record as var %}}`: {selector.__name__} for the request's user."
    register.simple_tag(panel, takes_context=True, name=name)
