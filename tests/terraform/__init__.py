"""Offline checks of the Terraform configuration (tests/terraform/check.py runs them outside pytest)."""
