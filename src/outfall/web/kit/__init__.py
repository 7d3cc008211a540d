"""The web layer's shared kit, on the ground floor beside `core` and `audit`: one way to do each
thing every bounded context does (a clock, a step, a row lock, a stored determination, a
printed page, a form). It imports no bounded context."""
