"""Adjudication: what ends a game or changes its result, executed from the ruleset tables."""
