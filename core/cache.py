"""The Redis connection pool of Django's cache, one per process.

Django's Redis cache keeps its connection pool on the cache object, and the cache objects
are local to the request's context: the web process serves each request in a fresh
context (the WSGI app on a thread pool), so every request that touched the cache (a
request-rate counter, a webhook's queued-task mark) built a pool and opened a new
connection to Redis. `SharedConnectionPool` (settings: CACHES OPTIONS `pool_class`) hands
every cache object of the process the same pool for the same server and options; redis-py's
pool is thread-safe and opens its connections again after a fork.
"""

import threading

import redis

_lock = threading.Lock()
_pools: dict = {}


class SharedConnectionPool(redis.ConnectionPool):
    @classmethod
    def from_url(cls, url, **kwargs):
        key = (url, tuple(sorted((name, repr(value)) for name, value in kwargs.items())))
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = super().from_url(url, **kwargs)
        return pool
