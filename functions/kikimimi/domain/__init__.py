"""Domain: the pure core; no I/O, no environment, time comes in as an argument."""
