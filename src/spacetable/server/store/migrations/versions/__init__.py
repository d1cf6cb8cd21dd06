"""The revisions, oldest first (``v0001_matches.py``, ``v0002_accounts.py``,
``v0003_ratings.py``, ``v0004_deadlines.py``, ``v0005_room_accounts.py``)."""
