"""The MS4 inventory and dry-weather outfall screening (Article I, DPW)."""
