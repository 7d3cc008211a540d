"""The bylaw as code: parameters by town and date, one module per formalised section."""
