"""HeroClix data: figures and their dials, maps, scenarios, team abilities, forces (YAML files and their loaders)."""
