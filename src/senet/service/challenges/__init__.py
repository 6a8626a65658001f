"""The challenges of the service."""
