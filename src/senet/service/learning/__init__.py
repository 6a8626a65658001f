"""The learning of the service."""
