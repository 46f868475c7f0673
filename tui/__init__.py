"""Clowder terminal client and the clowder command."""
