"""Clowder networking: protocol, host, client, discovery."""
