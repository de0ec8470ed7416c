"""Heroscape: ``heroscape_v0`` (see its module docstring) and its bots."""

from envs.registry import register_bots, register_env

register_env(
    "heroscape_v0", module="envs.heroscape.heroscape_v0", game="envs.heroscape.rules:HeroscapeGame"
)
register_bots(
    "heroscape",
    {
        "heuristic": "envs.heroscape.bots.heuristic:HeuristicBot",
        "lookahead": "envs.heroscape.bots.lookahead:LookaheadBot",
    },
)
