"""The database of the service."""
