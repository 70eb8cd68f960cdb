"""Table talk: `chat.say`, a line in the log for everyone it is for (a whisper reaches only its seats and
the GM), in every campaign whatever its game. The layer that plugs in is `part.PART`."""
