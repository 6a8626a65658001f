"""The bots of the service."""
