// 0011: scopes (engram/scope.py). The app's own ids look sources and episodes up (forget and get by external id),
// a space lists its users' partitions by `parent`, and list/export/forget filter episodes by agent and session.
CREATE RANGE INDEX source_external_id IF NOT EXISTS FOR (n:Source) ON (n.space, n.external_id);
CREATE RANGE INDEX episode_external_id IF NOT EXISTS FOR (n:Episode) ON (n.space, n.external_id);
CREATE RANGE INDEX space_parent IF NOT EXISTS FOR (n:Space) ON (n.parent);
