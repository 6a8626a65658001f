"""The push of the service."""
