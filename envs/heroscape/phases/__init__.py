"""Heroscape's turn as a table of phases, one rule per decision, and the turn order and end of the game."""
