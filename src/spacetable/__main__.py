"""``python -m spacetable``: the same as the ``spacetable`` command."""

from spacetable.cli import main

main()
