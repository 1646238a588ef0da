// The JVM's heap (used, committed, max bytes) and its process name (pid@host), from JMX (no JMX port needed).
CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes AS memory
CALL dbms.queryJmx('java.lang:type=Runtime') YIELD attributes AS runtime
RETURN memory.HeapMemoryUsage.value.properties.used AS heap_used,
       memory.HeapMemoryUsage.value.properties.committed AS heap_committed,
       memory.HeapMemoryUsage.value.properties.max AS heap_max,
       runtime.Name.value AS process
