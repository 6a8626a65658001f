"""The players of the service."""
