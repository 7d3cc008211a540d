"""The enforcement entries on the DPW index page: (label, url name, policy action)."""

NAV = [
    ("Enforcement cases (§ 267-10, § 267-25)", "enforcement:list", "case.view"),
]
