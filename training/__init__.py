"""heroarena training, evaluation and recording tools."""
