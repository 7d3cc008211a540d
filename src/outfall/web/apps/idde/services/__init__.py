"""Writes to the DPW's Article I records, one module per concern: every service is atomic,
takes `actor=`, audits under its section in the same transaction and sends notices on commit.
"""
