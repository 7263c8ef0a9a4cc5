"""One module per task family; each exposes `tasks()` yielding every task of the family."""
