"""Adapters: the ports on vendors, one module a vendor, and the local backends settings pick; no use case."""
