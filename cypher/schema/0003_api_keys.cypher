// 0003: API keys of the GraphQL service. A key's id is public (it names the key in logs and in
// revocation); only a hash of its secret is stored. Key ids are unique across spaces, so a request's
// key alone says which space it may touch.
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT api_key_space_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE (k.space, k.id) IS UNIQUE;
