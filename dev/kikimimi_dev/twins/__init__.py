"""Twins: in-memory and recording stand-ins of the ports, inspectable and deterministic."""
