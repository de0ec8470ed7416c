"""HeroClix powers: the hook registry, the catalog of the 44 powers, and the powers by family."""
