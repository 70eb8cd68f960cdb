"""Real time: the broker says "campaign X is at seq N"; each process's hub renders for its own sockets."""
