// 0006: a large space's own indexes now include full-text and concept indexes (graph/space_indexes.py), and the
// Space node's flags were renamed with them. A space readied under the old flags has only vector indexes: its old
// flags are removed, so recall uses the shared indexes until consolidation (or `dedicate`) readies it again.
MATCH (s:Space)
WHERE s.vector_labelling IS NOT NULL OR s.vector_indexes_ready IS NOT NULL
REMOVE s.vector_labelling, s.vector_indexes_ready;
