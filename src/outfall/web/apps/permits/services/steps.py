"""What the permit's construction and O&M steps do first: lock the application and check the
step is open from its state now."""

from __future__ import annotations

from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.permits.models import Application
from outfall.web.apps.permits.selectors.construction import step_require


def locked_for_step(application: Application, key: str, *, steps=None) -> Application:
    """The application's row, locked for the rest of the transaction; TransitionNotAllowed with
    every reason unless step `key` (of `steps`, default the construction steps) is open now."""
    application = lock_row(application)
    step_require(application, key, steps=steps)
    return application
