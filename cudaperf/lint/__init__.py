"""The linter: rules over analysis reports, findings, and their output formats."""
