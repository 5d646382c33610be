"""Data files the deployed functions read (the reply reader's trained weights)."""
