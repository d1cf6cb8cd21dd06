"""A module that nothing imports but the pool of tests/test_time_limit.py that preloads it."""
