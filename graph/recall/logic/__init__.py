"""The logic of recall's steps, apart from the pipeline: `steps/<name>.py` is the step (what it reads from and writes
to the run, and its trace), `logic/<name>.py` the algorithm it runs, testable without a run."""
