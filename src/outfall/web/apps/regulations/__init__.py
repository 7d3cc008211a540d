"""The Planning Board's rules and regulations under § 267-17B: drafts, the advertised public
hearing, the Board's majority vote and the adopted versions with their effective dates; what an
adopted regulation sets for the law (the § 267-25D fines) is the town's override layer."""
