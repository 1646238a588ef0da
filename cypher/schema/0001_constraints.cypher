// 0001: one composite uniqueness constraint on (space, id) per label: every write MERGEs on it,
// so a redelivered job can neither duplicate nor lose a node.
CREATE CONSTRAINT space_space_id IF NOT EXISTS FOR (n:Space) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT source_space_id IF NOT EXISTS FOR (n:Source) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT episode_space_id IF NOT EXISTS FOR (n:Episode) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT proposition_space_id IF NOT EXISTS FOR (n:Proposition) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT concept_space_id IF NOT EXISTS FOR (n:Concept) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT intent_space_id IF NOT EXISTS FOR (n:Intent) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT prescription_space_id IF NOT EXISTS FOR (n:Prescription) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT dimension_space_id IF NOT EXISTS FOR (n:Dimension) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT schema_migration_version IF NOT EXISTS FOR (m:SchemaMigration) REQUIRE m.version IS UNIQUE;
