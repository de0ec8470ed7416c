"""LEGO Heroica: ``heroica_v0`` (see its module docstring) and its bots."""

from envs.registry import register_bots, register_env

register_env("heroica_v0", module="envs.heroica.heroica_v0", game="envs.heroica.rules:HeroicaGame")
register_bots(
    "heroica",
    {
        "heuristic": "envs.heroica.bots.heuristic:HeuristicBot",
        "lookahead": "envs.heroica.bots.lookahead:LookaheadBot",
    },
)
