"""The infrastructure of the service."""
