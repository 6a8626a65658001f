"""The reading of the service."""
