"""VitaBench-specific agents (the oracle)."""
