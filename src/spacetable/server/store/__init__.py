"""Storage: the finished matches (:mod:`~spacetable.server.store.storage`), the rooms while
they live (:mod:`~spacetable.server.store.live_store`) and the queue that saves finished
matches when the database is away (:mod:`~spacetable.server.store.save_queue`)."""
