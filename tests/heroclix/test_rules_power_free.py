"""Powers used without an action (envs/heroclix/RULES.md P-DMG-10 Outwit, P-DMG-9 Perplex)."""

from __future__ import annotations

OUTWIT = (None, None, None, "outwit")
PERPLEX = (None, None, None, "perplex")
TOUGH = (None, None, "toughness", None)


def plain(H, name, **kw):
    return H.fig(name.lower().replace(" ", "_"), name, **kw)


def duel(H, a, b, a_at=(5, 5), b_at=(5, 9), extra0=(), extra1=(), placements=None, **kw):
    place = {a["name"]: a_at, b["name"]: b_at, **(placements or {})}
    return H.build([[a, *extra0], [b, *extra1]], place, **kw)


def free(game, state, label, power, target, choice):
    """Use ``label``'s free power on ``target`` with the named choice."""
    r, c = divmod(game.to_dict(state)["cell"][game.figure_label.index(label)], game.width)
    events = game.apply_string(state, f"free {label} ({r},{c})")
    names = [game.action_to_string(state, a) for a in game.legal_actions(state)]
    events += game.apply_string(
        state, next(n for n in names if n.startswith(f"{power} {label} -> {target} ("))
    )
    events += game.apply_string(state, f"{power} {target}: {choice}")
    return events


def test_P_DMG_10_outwit_counters_a_power_until_the_start_of_its_next_turn(H):
    game, state = duel(H, plain(H, "Wit", powers=OUTWIT), plain(H, "Tank", powers=TOUGH, range=6))
    events = free(game, state, "Wit", "outwit", "Tank", "counter the defense power")
    assert "outwit" in H.kinds(events)
    assert H.phase(game, state) == "ACTION" and H.d(game, state)["actions_left"] == 1
    assert H.tokens(game, state, "Wit") == 0
    assert not [n for n in H.names(game, state) if n.startswith("free")]  # once a turn
    game.apply_string(state, "end turn")
    assert H.d(game, state)["outwits"]  # still countered in the opponent's turn
    game.apply_string(state, "end turn")
    assert not H.d(game, state)["outwits"]


def test_P_DMG_10_a_countered_power_does_nothing(H):
    game, state = duel(
        H,
        plain(H, "Wit", powers=OUTWIT, damage=3),
        plain(H, "Tank", powers=TOUGH),
        b_at=(5, 6),
        dice=["3", "4"],
    )
    free(game, state, "Wit", "outwit", "Tank", "counter the defense power")
    H.close(game, state, "Wit", "Tank")
    assert H.clicks(game, state, "Tank") == 3  # no Toughness


def test_P_DMG_10_outwit_needs_10_squares_and_line_of_fire(H):
    game, state = duel(
        H,
        plain(H, "Wit", powers=OUTWIT),
        plain(H, "Tank", powers=TOUGH),
        a_at=(0, 0),
        b_at=(11, 11),
    )
    assert not [n for n in H.names(game, state) if n.startswith("free")]
    game, state = duel(
        H,
        plain(H, "Wit", powers=OUTWIT),
        plain(H, "Tank", powers=TOUGH),
        walls=[((r, 7), (r, 8)) for r in range(12)],
    )
    assert not [n for n in H.names(game, state) if n.startswith("free")]


def test_P_DMG_10_outwit_cannot_counter_earthbound_and_forces_a_soarer_to_hover(H):
    flyer = plain(H, "Flyer", flyer=True, powers=(None, None, "toughness", None))
    game, state = duel(
        H, plain(H, "Wit", powers=OUTWIT), flyer, placements={"Flyer": (5, 9, "soar")}
    )
    free(game, state, "Wit", "outwit", "Flyer", "force to hover")
    assert not H.soaring(game, state, "Flyer")
    grounded = plain(H, "Grounded", flyer=True, powers=("earthbound", None, None, None))
    game, state = duel(H, plain(H, "Wit", powers=OUTWIT), grounded)
    assert not [n for n in H.names(game, state) if n.startswith("free")]


def test_P_DMG_10_counters_end_when_the_outwitter_loses_outwit(H):
    wit = plain(H, "Wit", dial=[H.click(powers=OUTWIT), H.click(), H.click()])
    game, state = duel(H, wit, plain(H, "Tank", powers=TOUGH, range=8), dice=["3", "4"])
    free(game, state, "Wit", "outwit", "Tank", "counter the defense power")
    game.apply_string(state, "end turn")
    H.ranged(game, state, "Tank", "Wit")  # 2 clicks: Outwit is off Wit's dial
    assert not H.d(game, state)["outwits"]


def test_P_DMG_9_perplex_changes_a_value_until_the_end_of_the_turn(H):
    game, state = duel(
        H, plain(H, "Puzzler", powers=PERPLEX), plain(H, "Foe"), b_at=(5, 6), dice=["3", "3"]
    )  # 6 + 9 + 1 = 16
    free(game, state, "Puzzler", "perplex", "Puzzler", "attack +1")
    assert H.d(game, state)["perplex"] == [[0, 1, 1, 0]]
    H.close(game, state, "Puzzler", "Foe")
    assert H.clicks(game, state, "Foe") == 2
    assert not H.d(game, state)["perplex"]  # the turn ended


def test_P_DMG_9_perplex_on_an_enemy_ends_when_it_is_damaged(H):
    game, state = duel(
        H, plain(H, "Puzzler", powers=PERPLEX, range=6), plain(H, "Foe"), dice=["3", "4"]
    )
    free(game, state, "Puzzler", "perplex", "Foe", "defense -1")
    assert H.d(game, state)["perplex"]
    H.ranged(game, state, "Puzzler", "Foe")
    assert not H.d(game, state)["perplex"] and H.clicks(game, state, "Foe") == 2


def test_P_DMG_9_perplex_range_and_speed(H):
    game, state = duel(
        H, plain(H, "Puzzler", powers=PERPLEX, range=3), plain(H, "Foe"), b_at=(5, 9)
    )
    assert H.ranged_targets(game, state, "Puzzler") == set()  # 4 squares, range 3
    free(game, state, "Puzzler", "perplex", "Puzzler", "range +1")
    assert H.ranged_targets(game, state, "Puzzler") == {"Foe"}
    assert (5, 11) not in H.dests(game, state, "Puzzler")


def channel(game, name):
    return game.view.channel_names.index(name)


def test_HC_8_1_observations_show_countered_and_switched_off_powers_and_perplex(H):
    game, state = duel(H, plain(H, "Wit", powers=OUTWIT), plain(H, "Tank", powers=TOUGH))
    free(game, state, "Wit", "outwit", "Tank", "counter the defense power")
    obs = game.observe(state, 0).reshape(len(game.view.channel_names), -1)
    tank = 5 * game.width + 9
    assert obs[channel(game, "power_state:countered/defense"), tank] == 1.0
    assert obs[channel(game, "powers:toughness"), tank] == 0.0
    game, state = duel(H, plain(H, "Puzzler", powers=PERPLEX), plain(H, "Foe"))
    before = game.observe(state, 0).reshape(len(game.view.channel_names), -1)
    free(game, state, "Puzzler", "perplex", "Foe", "defense -1")
    after = game.observe(state, 0).reshape(len(game.view.channel_names), -1)
    foe = 5 * game.width + 9
    assert (
        after[channel(game, "stats:defense"), foe]
        == before[channel(game, "stats:defense"), foe] - 1 / 20
    )
