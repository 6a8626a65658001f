"""The games of the service."""
