"""The lab: studies, benchmarks and the server load test (DESIGN section 1)."""
