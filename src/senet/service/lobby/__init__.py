"""The lobby of the service."""
