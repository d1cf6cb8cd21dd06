"""Print and play: true-size sheets for every game, as a PDF (``spacetable print``).

:mod:`.sheets` checks the options, puts the games' sheets together and writes the
manifest; one module per game's sheets: :mod:`.lasers` (Light Speed and Stellar Conflict
cards, whose faces and fiducial markers :mod:`.faces` draws after
:mod:`spacetable.photo.markers`), :mod:`.ftl` and :mod:`.hexfleet`; :mod:`.layout` places
pieces on pages with crop marks; :mod:`.pdf` draws in page millimetres with reportlab.
The same options give the same PDF, byte for byte.
"""
