"""Answers are JSON whatever the Accept header asks for.

Every API route renders JSON only; refusing a client whose Accept header leaves JSON out
(406) would be one more status for every operation, with nothing else to offer it. The
answer comes in the one format the descriptions document instead (RFC 9110 §12.5.1 lets a
server disregard Accept).
"""

from rest_framework.negotiation import DefaultContentNegotiation


class JsonAnswers(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        renderer = renderers[0]
        return renderer, renderer.media_type
