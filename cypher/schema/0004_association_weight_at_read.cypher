// 0004: an association's weight (co-mentions x idf x idf) is computed where it is read, from the current idf
// of both ends; the stored copy went stale whenever idf moved, so it goes. Idempotent.
MATCH (:Concept)-[r:ASSOCIATED]->(:Concept) WHERE r.weight IS NOT NULL
REMOVE r.weight;
