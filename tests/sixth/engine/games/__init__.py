"""Stands for ``engine/games/``: the sixth game's folder, ``toy/``, is found here by the scan."""
