import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# Everything loaded so far lives as long as the process: keep it out of the garbage
# collector's full passes, which otherwise walk it during large answers.
gc.freeze()
