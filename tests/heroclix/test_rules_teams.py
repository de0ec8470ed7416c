"""Team abilities (envs/heroclix/RULES.md TA, TA-*; envs/heroclix/RULES.md R-13): data in
envs/heroclix/data/teams.yaml, on only with the ``team_abilities`` option."""

from __future__ import annotations

import pytest

from envs.core.scenario import ScenarioError
from envs.heroclix.data.figures import load_figure_text
from envs.heroclix.data.teams import teams

ON = {"team_abilities": True}


def member(H, name, team, **kw):
    data = H.fig(name.lower().replace(" ", "_"), name, **kw)
    data["team"] = team
    return data


def plain(H, name, **kw):
    return H.fig(name.lower().replace(" ", "_"), name, **kw)


def duel(H, a, b, a_at=(5, 5), b_at=(5, 6), extra0=(), extra1=(), placements=None, **kw):
    place = {a["name"]: a_at, b["name"]: b_at, **(placements or {})}
    return H.build([[a, *extra0], [b, *extra1]], place, **kw)


def test_R_13_every_team_of_section_6_is_data_with_its_ability_id():
    table = teams()
    assert {t.ability for t in table.values()} == {
        "TA-AVG",
        "TA-BRO",
        "TA-DEF",
        "TA-FF",
        "TA-HYD",
        "TA-MOE",
        "TA-MOD",
        "TA-MYS",
        "TA-SS",
        "TA-XM",
        "TA-TB",
        "TA-POL",
        "TA-SHD",
        "TA-SKR",
    }
    assert table["x_men"].effect is None and table["thunderbolts"].effect is None


def test_R_13_an_unknown_team_is_an_error_naming_the_field():
    text = (
        "id: gizmo\nname: Gizmo\npoints: 30\nrange: 0\ntargets: 1\nteam: avengerz\n"
        "dial:\n  - {values: [8, 9, 16, 2]}\n  - KO\n"
    )
    with pytest.raises(ScenarioError, match="team") as error:
        load_figure_text(text)
    assert error.value.line == 6 and "avengers" in str(error.value)


def test_TA_AVG_a_members_move_uses_no_action_with_the_option(H):
    force = [member(H, "Hawk", "avengers"), member(H, "Wasp", "avengers"), plain(H, "Thug")]
    kw = dict(
        a_at=(5, 2), b_at=(11, 11), extra0=force[1:], placements={"Wasp": (5, 3), "Thug": (9, 2)}
    )
    game, state = duel(H, force[0], plain(H, "Foe"), options=ON, **kw)
    H.move(game, state, "Hawk", (5, 4))
    assert H.seat(game, state) == 0 and H.d(game, state)["actions_left"] == 1
    assert "select Hawk (5,4)" not in H.names(game, state)  # one action per figure per turn
    H.move(game, state, "Wasp", (6, 3))
    assert H.seat(game, state) == 0  # a second free move
    H.move(game, state, "Thug", (9, 3))
    assert H.seat(game, state) == 1  # a non-member's move uses the one action
    game, state = duel(H, force[0], plain(H, "Foe"), **kw)  # option off (R-13 default)
    H.move(game, state, "Hawk", (5, 4))
    assert H.seat(game, state) == 1


def test_TA_AVG_an_attack_still_uses_the_action(H):
    game, state = duel(
        H, member(H, "Hawk", "avengers"), plain(H, "Foe"), options=ON, dice=["3", "4"]
    )
    H.close(game, state, "Hawk", "Foe")
    assert H.seat(game, state) == 1


def test_TA_DEF_members_lend_each_other_their_defense(H):
    ward, guard = member(H, "Ward", "defenders"), member(H, "Guard", "defenders", defense=19)
    game, state = duel(
        H,
        plain(H, "Hitter"),
        ward,
        extra1=[guard],
        placements={"Guard": (6, 6)},
        options=ON,
        dice=["5", "4"],
    )  # 18 < 19
    H.close(game, state, "Hitter", "Ward")
    assert H.clicks(game, state, "Ward") == 0


def test_TA_FF_the_others_heal_1_when_a_member_is_kod(H):
    a, b = member(H, "Torch", "fantastic_four", clicks=2), member(H, "Rock", "fantastic_four")
    game, state = duel(
        H,
        plain(H, "Hitter", damage=3),
        a,
        extra1=[b],
        placements={"Rock": (9, 9)},
        clicks={"Rock": 2},
        options=ON,
        dice=["3", "4"],
    )
    H.close(game, state, "Hitter", "Torch")
    assert H.sq(game, state, "Torch") is None and H.clicks(game, state, "Rock") == 1


def test_TA_HYD_a_member_beside_the_shooter_with_a_line_lowers_the_targets_defense(H):
    game, state = duel(
        H,
        plain(H, "Gunner", range=6),
        plain(H, "Foe"),
        b_at=(5, 9),
        extra0=[member(H, "Agent", "hydra")],
        placements={"Agent": (4, 5)},
        options=ON,
        dice=["3", "3"],
    )  # 6 + 9 = 15 >= 16 - 1
    H.ranged(game, state, "Gunner", "Foe")
    assert H.clicks(game, state, "Foe") == 2


def test_TA_MOE_a_member_acts_with_2_tokens_for_1_click(H):
    game, state = duel(
        H,
        member(H, "Baron", "masters_of_evil"),
        plain(H, "Foe"),
        b_at=(11, 11),
        tokens={"Baron": 2},
        options=ON,
    )
    H.move(game, state, "Baron", (5, 6))
    assert H.clicks(game, state, "Baron") == 1 and H.tokens(game, state, "Baron") == 2
    game, state = duel(
        H,
        member(H, "Baron", "masters_of_evil"),
        plain(H, "Foe"),
        b_at=(11, 11),
        tokens={"Baron": 2},
    )
    assert "select Baron (5,5)" not in H.names(game, state)  # HC-3.17 without the option


def test_TA_MYS_an_attacker_that_damages_a_member_takes_1(H):
    game, state = duel(
        H, plain(H, "Hitter"), member(H, "Sorcerer", "mystics"), options=ON, dice=["3", "4"]
    )
    H.close(game, state, "Hitter", "Sorcerer")
    assert H.clicks(game, state, "Sorcerer") == 2 and H.clicks(game, state, "Hitter") == 1


def test_TA_SS_a_member_attacks_with_an_adjacent_members_attack_value(H):
    game, state = duel(
        H,
        member(H, "Shocker", "sinister_syndicate", attack=7),
        plain(H, "Foe"),
        extra0=[member(H, "Vulture", "sinister_syndicate", attack=10)],
        placements={"Vulture": (4, 5)},
        options=ON,
        dice=["3", "3"],
    )  # 6+10
    H.close(game, state, "Shocker", "Foe")
    assert H.clicks(game, state, "Foe") == 2


def test_TA_SS_a_mind_controlled_member_borrows_nothing_from_its_owners_members(H):
    # P-SPD-6: during the controlled action its owner's members are its enemies
    mind = plain(H, "Mind", powers=("mind_control", None, None, None))
    game, state = duel(
        H,
        mind,
        member(H, "Shocker", "sinister_syndicate", attack=7, points=40),
        extra1=[member(H, "Vulture", "sinister_syndicate", attack=10)],
        placements={"Vulture": (5, 7)},
        options=ON,
        dice=["3", "4", "3", "3"],
    )
    H.select(game, state, "Mind")
    game.apply_string(state, "mind control Mind")
    game.apply_string(state, "mind control Mind -> Shocker (5,6)")  # 7 + 9 = 16: controlled
    game.apply_string(state, "close Vulture (5,7)")  # 6 + 7 = 13 < 16 (Vulture's 10: a hit)
    assert H.clicks(game, state, "Vulture") == 0


def test_TA_MOD_the_wild_card_has_its_forces_team_abilities(H):
    game, state = duel(
        H,
        member(H, "Minion", "minions_of_doom"),
        plain(H, "Foe"),
        b_at=(11, 11),
        extra0=[member(H, "Hawk", "avengers")],
        placements={"Hawk": (9, 2)},
        options=ON,
    )
    H.move(game, state, "Minion", (5, 6))
    assert H.seat(game, state) == 0  # the Avengers' free move
