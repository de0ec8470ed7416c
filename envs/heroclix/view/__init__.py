"""HeroClix as seen by players: observation planes, action names, text; the scene frames are drawn from."""
