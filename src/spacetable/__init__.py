"""spacetable: tabletop space-combat games on a computer."""

__version__ = "0.1.0"
