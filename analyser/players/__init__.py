"""The players by name and their parameters, seeded runs of deals and their logs, solver positions from a log."""
