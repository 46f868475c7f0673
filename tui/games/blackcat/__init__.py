"""Black Cat's table screen (``screen.py``) and its stylesheet."""
