// Bytes of the JVM heap in use now (JMX's java.lang:type=Memory, readable without a JMX port on Neo4j 5).
CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes
RETURN attributes.HeapMemoryUsage.value.properties.used AS used
