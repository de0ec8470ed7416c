"""Powers that place markers (envs/heroclix/RULES.md P-ATT-8 Smoke Cloud, P-DEF-6 Barrier)."""

from __future__ import annotations

SMOKE = (None, "smoke_cloud", None, None)
BARRIER = (None, None, "barrier", None)


def plain(H, name, **kw):
    return H.fig(name.lower().replace(" ", "_"), name, **kw)


def duel(H, a, b, a_at=(5, 5), b_at=(5, 6), extra0=(), extra1=(), placements=None, **kw):
    place = {a["name"]: a_at, b["name"]: b_at, **(placements or {})}
    return H.build([[a, *extra0], [b, *extra1]], place, **kw)


def markers(H, game, state, label, power):
    """Squares offered for the next marker."""
    return {
        tuple(int(x) for x in n.rsplit(" ", 1)[1][1:-1].split(","))
        for n in H.names(game, state)
        if n.startswith(f"{power} {label} marker")
    }


def start(H, game, state, label, power):
    H.select(game, state, label)
    game.apply_string(state, f"{power} {label}")


def place(game, state, label, power, r, c):
    return game.apply_string(state, f"{power} {label} marker ({r},{c})")


def test_P_ATT_8_smoke_cloud_places_up_to_4_touching_hindering_markers(H):
    game, state = duel(H, plain(H, "Smoker", powers=SMOKE, range=4), plain(H, "Foe"), b_at=(11, 11))
    start(H, game, state, "Smoker", "smoke cloud")
    first = markers(H, game, state, "Smoker", "smoke cloud")
    assert (5, 9) in first and (5, 10) not in first  # range 4
    place(game, state, "Smoker", "smoke cloud", 5, 8)
    assert "end smoke cloud" in H.names(game, state)
    assert markers(H, game, state, "Smoker", "smoke cloud") == {
        (4, 7),
        (4, 8),
        (4, 9),
        (5, 7),
        (5, 9),
        (6, 7),
        (6, 8),
        (6, 9),
    }
    for c in (7, 6, 5):
        place(game, state, "Smoker", "smoke cloud", 5, c)
    assert H.phase(game, state) == "ACTION"  # the fourth ends the action
    assert H.tokens(game, state, "Smoker") == 1
    assert sorted(H.d(game, state)["smoke"]).count(0) == 4
    obs = game.observe(state, 1).reshape(len(game.view.channel_names), -1)
    smoke = obs[game.view.channel_names.index("markers:smoke")]
    assert {divmod(int(c), game.width) for c in smoke.nonzero()[0]} == {
        (5, c) for c in (5, 6, 7, 8)
    }
    hindering = obs[game.view.channel_names.index("terrain:hindering")]
    assert hindering[5 * game.width + 6] == 1.0


def test_P_ATT_8_smoke_markers_hinder_lines_of_fire_and_movement(H):
    game, state = duel(
        H,
        plain(H, "Smoker", powers=SMOKE, range=4),
        plain(H, "Foe", range=8),
        b_at=(5, 9),
        dice=["3", "4"],
    )
    start(H, game, state, "Smoker", "smoke cloud")
    place(game, state, "Smoker", "smoke cloud", 5, 8)
    place(game, state, "Smoker", "smoke cloud", 5, 9)  # under Foe: occupied squares too
    game.apply_string(state, "end smoke cloud")
    dests = H.dests(game, state, "Foe")
    assert (2, 9) in dests and (1, 9) not in dests  # starts in hindering: 6 -> 3 (HC-5.10)
    H.ranged(game, state, "Foe", "Smoker")
    assert H.clicks(game, state, "Smoker") == 0  # 7 + 9 = 16 < 16 + 1 for the marker


def test_P_ATT_8_smoke_markers_vanish_at_the_start_of_the_controllers_next_turn(H):
    game, state = duel(H, plain(H, "Smoker", powers=SMOKE, range=4), plain(H, "Foe"), b_at=(11, 11))
    start(H, game, state, "Smoker", "smoke cloud")
    place(game, state, "Smoker", "smoke cloud", 5, 7)
    game.apply_string(state, "end smoke cloud")
    assert max(H.d(game, state)["smoke"]) == 0  # still there during the opponent's turn
    game.apply_string(state, "end turn")
    assert max(H.d(game, state)["smoke"]) == -1


def test_P_ATT_8_smoke_markers_vanish_when_the_power_is_lost(H):
    dial = [H.click(powers=SMOKE), H.click(), H.click()]
    smoker = plain(H, "Smoker", dial=dial, range=4)
    game, state = duel(H, smoker, plain(H, "Foe", range=8), b_at=(5, 10), dice=["3", "4"])
    start(H, game, state, "Smoker", "smoke cloud")
    place(game, state, "Smoker", "smoke cloud", 4, 5)
    game.apply_string(state, "end smoke cloud")
    H.ranged(game, state, "Foe", "Smoker")  # 2 clicks: Smoke Cloud is gone from the dial
    assert max(H.d(game, state)["smoke"]) == -1


def test_P_ATT_8_no_smoke_cloud_while_soaring(H):
    smoker = plain(H, "Smoker", powers=SMOKE, range=4, flyer=True)
    game, state = duel(
        H, smoker, plain(H, "Foe"), b_at=(11, 11), placements={"Smoker": (5, 5, "soar")}
    )
    assert not H.options_of(game, state, "Smoker", "smoke cloud")


def test_P_DEF_6_barrier_blocks_moves_and_lines_and_is_broken_like_blocking(H):
    game, state = duel(
        H,
        plain(H, "Builder", powers=BARRIER, range=3),
        plain(H, "Foe", range=8, damage=3),
        b_at=(5, 10),
        dice=["3", "4"],
    )
    start(H, game, state, "Builder", "barrier")
    assert (5, 5) not in markers(H, game, state, "Builder", "barrier")  # not its own square
    for r in (4, 5, 6):
        place(game, state, "Builder", "barrier", r, 7)
    game.apply_string(state, "end barrier")
    assert H.ranged_targets(game, state, "Foe") == set()  # the line crosses the barrier
    game.apply_string(state, "select Foe (5,10)")
    assert "smash (5,7)" in H.names(game, state)
    game.apply_string(state, "smash (5,7)")
    d = H.d(game, state)
    assert d["barrier"][5 * 12 + 7] == -1 and not d["blocking"][5 * 12 + 7]
    assert not d["rubble"][5 * 12 + 7]  # a broken barrier leaves nothing


def test_P_DEF_6_barrier_only_on_clear_empty_squares(H):
    game, state = duel(
        H,
        plain(H, "Builder", powers=BARRIER, range=3),
        plain(H, "Foe"),
        b_at=(5, 7),
        marks={(4, 6): "%", (6, 6): "#"},
    )
    start(H, game, state, "Builder", "barrier")
    offered = markers(H, game, state, "Builder", "barrier")
    assert (5, 7) not in offered and (4, 6) not in offered and (6, 6) not in offered
    assert (5, 6) in offered


def test_P_DEF_6_range_0_barrier_goes_on_adjacent_squares(H):
    game, state = duel(H, plain(H, "Builder", powers=BARRIER), plain(H, "Foe"), b_at=(11, 11))
    start(H, game, state, "Builder", "barrier")
    assert markers(H, game, state, "Builder", "barrier") == {
        (r, c) for r in (4, 5, 6) for c in (4, 5, 6)
    } - {(5, 5)}
