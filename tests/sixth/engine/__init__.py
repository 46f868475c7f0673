"""Stands for the project's ``engine`` package: only ``games/toy/`` below is the new game."""
