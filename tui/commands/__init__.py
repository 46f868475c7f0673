"""The ``clowder`` subcommands, one module each.

A command module has ``configure(parser)``, which adds its arguments, and
``run(args) -> int``, which does the work and returns the exit status. Each
is imported only when its command is chosen, so a light command never pays
for a heavy one (Textual is loaded only by the commands that draw a UI).
"""


class UsageError(Exception):
    """Arguments that cannot work: the command prints the message and exits with status 2."""
