"""The computer of the service."""
