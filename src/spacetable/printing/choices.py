"""What ``spacetable print`` offers, named without drawing anything: the games it prints,
the team colours and the most copies (the command line lists them in its help, and
imports the sheets, reportlab and svglib only when it prints)."""

from __future__ import annotations

from spacetable.render._drawing import PLAYER_COLOURS

#: What ``--ruleset`` takes, in the order a whole print follows.
RULESETS: tuple[str, ...] = ("lightspeed", "stellar", "ftl", "hexfleet")
#: Team colours, in seat order.
COLOURS: tuple[str, ...] = PLAYER_COLOURS
#: Most copies of a sheet one print makes.
MAX_COPIES = 20
