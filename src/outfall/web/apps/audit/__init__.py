"""The audit trail: who did what, when, under which section — written in the same transaction."""
