"""What a web process does once its application is loaded."""

import gc

from django.urls import get_resolver


def freeze_loaded() -> None:
    """Keep everything loaded so far out of the garbage collector's passes: it lives as
    long as the process, and a full pass would otherwise walk it during large answers
    (about 100 ms with nothing frozen; 4-5 ms with this, docs/performance.md).

    The URLconf, and with it every view, serializer and schema module, is loaded first:
    Django imports it on the first request, which would come after the freeze.
    """
    get_resolver().url_patterns  # noqa: B018 - the property imports the URLconf
    gc.collect()
    gc.freeze()
