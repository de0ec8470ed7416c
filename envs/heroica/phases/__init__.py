"""Heroica's turn as phases, one rule per decision: the Heroes' phases and Battle Heroica's Monster Player."""
