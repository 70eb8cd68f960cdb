"""Pure game rules: dice, the system contract and one package per game system.

Nothing here does I/O, reads the clock or owns randomness: dice come in through a Roller.
"""
