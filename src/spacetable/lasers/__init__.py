"""The laser battle of Light Speed and Stellar Conflict (DESIGN sections 2-4): the geometry
of cards on a table, ship definitions and catalogs, the reference resolver and its compiled
twin, table files, and the battle told in words."""
