"""One prompt module per language-model task."""
