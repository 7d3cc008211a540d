"""Writes to permit cases, one module per stage of the case: every service is atomic, takes
`actor=`, audits under its section in the same transaction and sends notices on commit.
"""

from outfall.web.apps.permits.services.transitions import application_transition

__all__ = ["application_transition"]
