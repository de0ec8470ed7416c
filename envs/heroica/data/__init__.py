"""Heroica data: missions (boards, starts, targets, pieces) and the pieces file (heroes, monsters, weapons, items), with their loaders."""
