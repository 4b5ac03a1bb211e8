"""The game store: SQLite tables for tournaments, rounds, boards and games, each game's event log,
numbered migrations, and resuming a game left open by a crash."""

from recorder.store.db import GameInfo, GameRow, GameStore, default_db_path
from recorder.store.resume import ResumePoint, StoreRecording, prime_resolver, resume_point

__all__ = ["GameInfo", "GameRow", "GameStore", "ResumePoint", "StoreRecording", "default_db_path",
           "prime_resolver", "resume_point"]
