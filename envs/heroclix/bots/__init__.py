"""HeroClix bots: the heuristic bot and its parts, the lookahead bot's hooks, the force balance table."""
