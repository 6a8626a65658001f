"""The analysis of the service."""
