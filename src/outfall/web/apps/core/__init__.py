"""Towns, people and their roles, and the pages every user shares."""
