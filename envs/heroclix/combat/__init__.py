"""HeroClix combat: the attack roll and damage, whom a figure may target, the rolls made for figures, objects."""
