"""The Django web application (the only layer that imports Django)."""
