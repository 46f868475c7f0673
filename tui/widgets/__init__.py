"""Table parts every game reuses: cards, hands, scores, log, prompts, timers, connection line.

Each widget takes plain data (attributes down) and reports what the player
chose as a Textual message (messages up); none of them knows a game's rules
or the network.
"""
