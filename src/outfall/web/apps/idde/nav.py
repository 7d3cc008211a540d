"""Illicit discharge entries on the DPW index page: (label, url name, policy action)."""

NAV = [
    ("Reports of illicit discharges", "idde:report_list", "report.view"),
    ("Investigations (§ 267-7)", "idde:investigation_list", "investigation.view"),
    ("Public report form", "idde_public:report_form", "report.submit"),
]
