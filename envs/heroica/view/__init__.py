"""Heroica as seen by players: observation planes, action names, text and scenes."""
