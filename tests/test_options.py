"""Options declared once (envs.core.options): every option of every env is one spec, and its
check, its error message and the docstring's options table all come from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from envs import env_names, make
from envs.core.game import OptionError
from envs.core.options import rst_table
from envs.optiondocs import expected_table, main, rewritten
from envs.pettingzoo_env import option_specs
from envs.registry import ENVS, load

ROOT = Path(__file__).resolve().parent.parent
NAMES = env_names()


def specs_of(name):
    return option_specs(load(ENVS[name].game))


@pytest.mark.parametrize("name", NAMES)
def test_docstring_options_table_is_the_one_the_specs_make(name):
    path, text, new = rewritten(name)
    assert text == new, f"{path}: run python -m envs.optiondocs --write"
    assert expected_table(name) in text


def test_optiondocs_check_exits_0_on_the_shipped_docstrings():
    assert main([]) == 0


def test_a_changed_spec_changes_the_table():
    specs = list(specs_of("heroclix_v0"))
    table = rst_table(specs)
    renamed = [
        s if s.name != "reward" else type(s)(**{**s.__dict__, "doc": "other"}) for s in specs
    ]
    assert rst_table(renamed) != table


@pytest.mark.parametrize("name", NAMES)
def test_every_option_has_a_one_line_doc_and_rule_ids_the_rules_file_defines(name):
    rules = (ROOT / "envs" / ENVS[name].module.split(".")[1] / "RULES.md").read_text()
    for spec in specs_of(name):
        assert spec.doc and "\n" not in spec.doc, spec.name
        if spec.rule:
            rule = re.escape(spec.rule)
            defined = rf"\*\*{rule}\*\*|^## {rule} "  # a rule line or a section heading
            assert re.search(defined, rules, re.M), (spec.name, spec.rule)


@pytest.mark.parametrize("name", NAMES)
def test_every_option_refuses_a_wrong_value_with_an_error_naming_it(name):
    for spec in specs_of(name):
        with pytest.raises(OptionError, match=rf"option '{spec.name}'"):
            make(name, **{spec.name: object()})


@pytest.mark.parametrize("name", NAMES)
def test_the_defaults_written_out_give_the_default_game(name):
    defaults = {s.name: s.default for s in specs_of(name)}
    env, plain = make(name, **defaults), make(name)
    env.reset(seed=4)
    plain.reset(seed=4)
    assert env.game.options == plain.game.options
    assert (
        env.observe(env.agent_selection)["action_mask"].tolist()
        == plain.observe(plain.agent_selection)["action_mask"].tolist()
    )


def test_an_unknown_option_names_the_closest_known_one():
    with pytest.raises(OptionError, match="did you mean 'hover_adjacent_ranged_exception'"):
        make("heroclix_v0", hover_adjacent_ranged_exceptoin=False)


def test_options_by_position_by_name_or_as_an_object_are_the_same():
    game_cls = load(ENVS["heroclix_v0"].game)
    by_name = game_cls(scenario="mall", setup="play")
    by_position = game_cls("mall", setup="play")
    as_object = game_cls(game_cls.OPTIONS(scenario="mall", setup="play"))
    assert by_name.options == by_position.options == as_object.options
    assert by_name.options.changed() == {"scenario": "mall", "setup": "play"}
    with pytest.raises(OptionError, match="both by position and by name"):
        game_cls("mall", scenario="duel")


def test_a_flag_error_names_its_rule():
    with pytest.raises(OptionError, match="option 'support_min_heal': P-DMG-3: must be 0 or 1"):
        make("heroclix_v0", support_min_heal=True)
