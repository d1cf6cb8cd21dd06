"""Where players meet (issue 69): who is online, quick pairing, challenges, friends, blocks
and moderation, for every process of a cluster. It sits between the HTTP routes and the
cluster: ``http`` <- ``meet`` <- ``cluster`` (``pyproject.toml``'s import contracts)."""
