MATCH (m:SchemaMigration) RETURN m.version AS version, m.checksum AS checksum ORDER BY version
