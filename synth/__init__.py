"""The simulated tournament table: rendered camera views and game videos with known truth."""
