"""HeroClix's turn as a table of phases: the turn, setup played as decisions, attacks, interrupts, the end of actions and turns."""
