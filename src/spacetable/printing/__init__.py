"""Print and play: true-size sheets for every game, as a PDF (``spacetable print``).

:mod:`.sheets` decides what a print holds and writes the manifest; :mod:`.layout` places
pieces on pages with crop marks; :mod:`.pdf` draws in page millimetres with reportlab;
:mod:`.faces` draws the laser games' cards with their fiducial markers
(:mod:`spacetable.photo.markers`); :mod:`.ftl` and :mod:`.hexfleet` draw those games'
tokens, rulers, counters and logs.
"""
