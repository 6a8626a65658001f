"""The fairness of the service."""
