"""Illicit discharge entries on the DPW index page: (label, url name, policy action)."""

NAV = [
    ("Reports of illicit discharges", "idde:report_list", "report.view"),
    ("Investigations (§ 267-7)", "idde:investigation_list", "investigation.view"),
    ("Public report form", "idde_public:report_form", "report.submit"),
    (
        "Sump pump discharge permits (§ 267-7D(2)(g))",
        "idde:discharge_permit_list",
        "discharge_permit.manage",
    ),
    ("Notices before a discharge (§ 267-7D(2))", "idde:notice_list", "discharge_notice.record"),
    ("Spills (§ 267-9)", "idde:spill_list", "spill.manage"),
    ("Emergency suspensions (§ 267-8)", "idde:suspension_list", "suspension.view"),
    ("Open311 API clients", "idde:open311_client_list", "open311_client.manage"),
    (
        "Public report settings: who is told of new reports",
        "idde:report_settings",
        "report.settings",
    ),
]
