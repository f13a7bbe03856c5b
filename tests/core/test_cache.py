"""Django's Redis cache objects of one process share one connection pool per server."""

import contextvars

from django.core.cache.backends.redis import RedisCache

SHARED = {"OPTIONS": {"pool_class": "core.cache.SharedConnectionPool"}}


def _pool(cache: RedisCache):
    return cache._cache._get_connection_pool(write=True)


def test_cache_objects_made_in_fresh_contexts_share_one_pool():
    # The web process makes a cache object per request context; each used to build a pool
    # (and open a connection) of its own.
    made = [
        contextvars.Context().run(lambda: RedisCache("redis://127.0.0.1:6379/3", SHARED))
        for _ in range(3)
    ]
    pools = {id(_pool(cache)) for cache in made}
    assert len(pools) == 1
    assert _pool(made[0]).connection_kwargs["db"] == 3


def test_another_server_or_database_has_a_pool_of_its_own():
    first = _pool(RedisCache("redis://127.0.0.1:6379/3", SHARED))
    other_db = _pool(RedisCache("redis://127.0.0.1:6379/4", SHARED))
    assert other_db is not first
    assert other_db.connection_kwargs["db"] == 4


def test_without_it_each_cache_object_builds_its_own_pool():
    url = "redis://127.0.0.1:6379/3"
    assert _pool(RedisCache(url, {})) is not _pool(RedisCache(url, {}))
