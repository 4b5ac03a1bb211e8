#!/usr/bin/env bash
# Render the demo game video: a real master game (line 5 of ../shared/data/games_iccs.txt:
# 80 plies, black mates) filmed at 1280x720, 10 fps, with a few arbiter cases injected, into
# OUTDIR (default out/demo/) as game.mp4, game.truth.json and game.clock.jsonl.
# Usage: scripts/render_demo_video.sh [OUTDIR]
# Environment: XQREC (command, default .venv/bin/xqrec), GAMES (a games_iccs.txt), LINE, PLIES, SEED,
# INJECT ("" for a clean game). Without ../shared/data the same game is read from synth/demo_game.txt,
# a copy of that one line kept in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
XQREC=${XQREC:-.venv/bin/xqrec}
OUTDIR=${1:-out/demo}
GAMES=${GAMES:-../shared/data/games_iccs.txt}
LINE=${LINE:-5}
if [ ! -f "$GAMES" ]; then
  echo "render_demo_video: $GAMES not found; the demo game is read from synth/demo_game.txt" >&2
  GAMES=synth/demo_game.txt
  LINE=1
fi
PLIES=${PLIES:-80}
SEED=${SEED:-2026}
INJECT=${INJECT-illegal@23,knock@41,no_press@56}
mkdir -p "$OUTDIR"
extra=()
if [ -n "$INJECT" ]; then extra+=(--inject "$INJECT"); fi
# shellcheck disable=SC2086  # XQREC may be a command with arguments
$XQREC render game --game-file "$GAMES" --line "$LINE" --plies "$PLIES" --seed "$SEED" \
  --think 0.8,1.6,3.5 --out "$OUTDIR/game.mp4" --truth "$OUTDIR/game.truth.json" \
  --clock "$OUTDIR/game.clock.jsonl" "${extra[@]}"
