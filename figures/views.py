from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from tokens.api import WorkspaceView

from .schema import ERROR_RESPONSES


class WhoamiView(WorkspaceView):
    # Anyone with a token of the workspace may ask who they are.
    allow_reporting_members = True

    @extend_schema(
        operation_id="whoami",
        summary="The workspace and token this request is authenticated as",
        description="The first call an integration should make. Not an envelope.",
        responses={
            200: inline_serializer(
                "Whoami",
                {
                    "workspace": inline_serializer(
                        "WhoamiWorkspace", {"id": serializers.CharField()}
                    ),
                    "token": inline_serializer("WhoamiToken", {"name": serializers.CharField()}),
                    "access": serializers.ChoiceField(choices=["read-only"]),
                },
            ),
            **ERROR_RESPONSES,
        },
    )
    def get(self, request):
        principal = self.principal
        if principal.api_token is not None:
            token_name = principal.api_token.name
        else:
            token_name = principal.access_token.application.name
        return Response(
            {
                "workspace": {"id": str(self.workspace.pk)},
                "token": {"name": token_name},
                # No token of this API ever writes sales records through it.
                "access": "read-only",
            }
        )
