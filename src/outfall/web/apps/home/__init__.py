"""The role-aware home page, on the top floor: it reads every bounded context below it."""
