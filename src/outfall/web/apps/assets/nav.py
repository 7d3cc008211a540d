"""The storm drain system's entries on the DPW index page: (label, url name, policy action)."""

NAV = [
    ("Storm drain system (MS4 inventory)", "assets:inventory", "asset.view"),
    ("Map of the storm drain system", "assets:map", "asset.view"),
    ("Dry-weather outfall screening", "assets:screening", "screening.view"),
    ("Catchment investigations", "assets:catchments", "catchment.view"),
    ("Catchments and their priority (MS4 program)", "ms4:catchments", "catchment.view"),
    ("Phosphorus and TSS load reduction ledger (MS4 program)", "ms4:load_reduction", "asset.view"),
]
