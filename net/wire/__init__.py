"""The wire: bytes, frames, the message catalogue, the protocol state machines and safe text.

Everything that crosses a connection is defined here and nowhere else. It imports
nothing of the other rooms of ``net`` (and no event loop, socket or file); every
other room, and the TUI, may import it.
"""
