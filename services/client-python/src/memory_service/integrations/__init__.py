"""Adapters for agent frameworks written in Python; each needs its framework installed (the package's extras)."""
