CALL dbms.components() YIELD name, versions RETURN name, versions[0] AS version
