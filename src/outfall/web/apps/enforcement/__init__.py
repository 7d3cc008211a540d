"""Enforcement shared by both articles: orders, town abatement and cost recovery, liens,
interest, and the penalty ledger (§ 267-10 for the DPW, § 267-25 for the Planning Board)."""
