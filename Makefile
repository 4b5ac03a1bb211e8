# xiangqi-recorder: `make demo` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: install system-deps test lint typecheck unit demo bench train train-compact clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "$(PYTHON) is Python " + sys.version.split()[0] + ": xiangqi-recorder needs 3.11 or newer (e.g. make demo PYTHON=python3.11)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## install: system packages (fonts) and a .venv with the project and its dev tools
install: system-deps $(STAMP)

system-deps:
	@bash scripts/install-system-deps.sh

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

## test: install when needed, then ruff, mypy and pytest
test: install lint typecheck unit

## demo: record the bundled demo game video (rendered once into out/demo/) and compare it with the truth
demo: install out/demo/game.mp4
	$(BIN)/xqrec demo

out/demo/game.mp4:
	bash scripts/render_demo_video.sh out/demo

## demo-video: render the demo game video again (a real 80-ply game, 4 to 7 min at 1280x720 on 2 cores) into out/demo/
.PHONY: demo-video
demo-video: install
	bash scripts/render_demo_video.sh out/demo

## bench: speed and accuracy figures (prints them)
bench: install
	$(BIN)/python -m bench

## train: render synth data, train the piece classifier (then a colour fine-tune and a longer one), export models/piece_classifier.onnx and its int8 copy (~2.4 h on 2 cores)
# torch must be the CPU build of the pinned release (an unpinned torch pulls a CUDA build of several GB);
# TORCH_FIND points pip at a folder of wheels where the machine keeps it
TORCH_FIND ?= --find-links /opt/wheels
train: install
	$(BIN)/pip install --quiet $(TORCH_FIND) -e '.[train]'
	$(BIN)/python -m models.train --out out/train/deep.onnx
	$(BIN)/python -m models.train --init out/train/deep.pt --steps 1200 --lr 5e-4 --recolour 0.2 --fit-seed 1 \
		--out out/train/deep_ft.onnx
	$(BIN)/python -m models.train --init out/train/deep_ft.pt --steps 5000 --lr 1e-3 --recolour 0.2 --fit-seed 2 \
		--out models/piece_classifier.onnx
	$(BIN)/python -m models.train.quantize --model models/piece_classifier.onnx

# the comparison model of the card: deep's layers with fewer channels, for the 5 ms target (about 35 min)
train-compact: install
	$(BIN)/pip install --quiet $(TORCH_FIND) -e '.[train]'
	$(BIN)/python -m models.train --arch compact --out out/train/compact.onnx
	$(BIN)/python -m models.train --arch compact --init out/train/compact.pt --steps 1200 --lr 5e-4 --recolour 0.2 \
		--fit-seed 1 --out out/train/compact_ft.onnx
	$(BIN)/python -m models.train.quantize --model out/train/compact_ft.onnx

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
