// The page cache size the server was started with (server.memory.pagecache.size).
SHOW SETTINGS YIELD name, value WHERE name = 'server.memory.pagecache.size'
RETURN value
