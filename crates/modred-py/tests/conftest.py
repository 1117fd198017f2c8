"""Shared settings: hypothesis runs derandomized (the same examples every run, no example
database), so a failure reproduces."""

from hypothesis import settings

settings.register_profile("modred", derandomize=True, database=None, deadline=None, max_examples=200)
settings.load_profile("modred")
