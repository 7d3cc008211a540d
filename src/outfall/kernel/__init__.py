"""Units, the business-day calendar, money and small shared value types."""
