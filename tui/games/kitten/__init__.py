"""You Gotta Be Kitten Me!'s table screen (``screen.py``) and its stylesheet."""
