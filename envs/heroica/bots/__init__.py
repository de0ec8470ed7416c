"""Heroica bots: the heuristic bot and the lookahead bot's hooks."""
