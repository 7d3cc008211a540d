"""Reads of the DPW's Article I records, always through what the user may see; one module per
concern.
"""
