SHOW PROCEDURES YIELD name WHERE name = $name RETURN count(*) AS n
