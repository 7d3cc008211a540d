"""Illicit discharge detection and elimination (Article I): reports, investigations, § 267-7
permits and notices, spills (§ 267-9) and emergency suspensions (§ 267-8)."""
