"""The demos `make demo` and `make demo-model` run (infra/demo.sh, infra/demo-model.sh)."""
