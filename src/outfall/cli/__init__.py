"""The command line: a thin front over compliance, law and eng."""
