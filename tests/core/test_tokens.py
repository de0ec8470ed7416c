"""Token layer (envs.core.tokens): objects lying on squares, held or gone (HC-6.3, HC-6.9)."""

import numpy as np
import pytest

from envs.core.tokens import GONE, HELD, TokenLayer


def layer() -> TokenLayer:
    return TokenLayer([0, 0, 1], ["table", "cabinet", "dumpster"], n_cells=9)


def test_HC_6_3_only_unheld_tokens_lie_on_squares():
    tokens = layer()
    where = tokens.new_where([4, HELD, 7])
    assert np.flatnonzero(tokens.lying(where)).tolist() == [4, 7]
    assert np.flatnonzero(tokens.lying(where, kind=1)).tolist() == [7]
    assert tokens.on_map(where) == [0, 2]


def test_HC_6_10_several_tokens_may_share_a_square():
    tokens = layer()
    where = tokens.new_where([4, 4, GONE])
    assert tokens.at(where, 4) == [0, 1]
    assert tokens.at(where, 5) == []
    assert np.flatnonzero(tokens.lying(where)).tolist() == [4]


def test_bad_positions_are_named():
    tokens = layer()
    with pytest.raises(ValueError, match="dumpster.*position 9"):
        tokens.new_where([0, 1, 9])
    with pytest.raises(ValueError, match="shape"):
        tokens.new_where([0, 1])
    with pytest.raises(ValueError, match="2 names"):
        TokenLayer([0, 1, 1], ["a", "b"], n_cells=4)
