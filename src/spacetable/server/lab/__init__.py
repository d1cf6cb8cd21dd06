"""The lab's benchmarks that play the server's own rooms (``spacetable bench
--state-bytes``). They import the server, so they cannot sit in :mod:`spacetable.lab`,
which the layers put below the registry and the server."""
