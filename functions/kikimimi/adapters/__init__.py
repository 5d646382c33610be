"""Adapters: the ports on real vendors, one module per vendor; they know no use case."""
