"""Writes of the enforcement ledger: atomic, `actor=`, audited under the section acted on."""
