"""The chat of the service."""
