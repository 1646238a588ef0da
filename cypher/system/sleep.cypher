// Sleeps $ms milliseconds and returns: a read that takes as long as asked, for proving transaction timeouts.
CALL apoc.util.sleep($ms)
RETURN $ms AS slept
