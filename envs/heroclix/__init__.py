"""HeroClix: ``heroclix_v0`` (see its module docstring) and its bots."""

from envs.registry import register_bots, register_env

register_env(
    "heroclix_v0", module="envs.heroclix.heroclix_v0", game="envs.heroclix.rules:HeroclixGame"
)
register_bots(
    "heroclix",
    {
        "heuristic": "envs.heroclix.bots.heuristic:HeuristicBot",
        "lookahead": "envs.heroclix.bots.lookahead:LookaheadBot",
    },
)
