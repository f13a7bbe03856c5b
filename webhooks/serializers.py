"""The bodies of the webhook-endpoint and events routes: what they take (validated here)
and what they answer (described here; the answers are built by services.endpoint_answer
and Event.as_api)."""

from rest_framework import serializers

from core.input import StrictSerializer
from events.types import EVENT_TYPE_CHOICES, EVENT_TYPES


class EndpointWriteSerializer(StrictSerializer):
    # The guard (webhooks.guard) checks the URL itself, so its refusal names what is wrong.
    url = serializers.CharField(
        trim_whitespace=False, help_text="https://… (at most 2,000 characters)."
    )
    events = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        allow_empty=True,
        max_length=len(EVENT_TYPES),
        help_text="The event types to send; omitted or empty: every type.",
    )
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=200, trim_whitespace=False
    )
    enabled = serializers.BooleanField(required=False, default=True)


class EndpointCreateSerializer(EndpointWriteSerializer):
    pass


class EndpointUpdateSerializer(EndpointWriteSerializer):
    url = serializers.CharField(required=False, trim_whitespace=False)
    enabled = serializers.BooleanField(required=False)


class EndpointSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    url = serializers.CharField()
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENT_TYPE_CHOICES),
        help_text="The event types sent; empty: every type.",
    )
    description = serializers.CharField(allow_blank=True)
    enabled = serializers.BooleanField(
        help_text="False while turned off, or after three days of failed deliveries."
    )
    created_at = serializers.DateTimeField()


class EndpointCreatedSerializer(EndpointSerializer):
    secret = serializers.CharField(
        help_text="The signing secret, `whsec_` and base64: shown in this answer only "
        "(and its idempotent replay)."
    )


class EndpointListSerializer(serializers.Serializer):
    endpoints = EndpointSerializer(many=True)


class EventSerializer(serializers.Serializer):
    id = serializers.RegexField(r"^evt_[0-9A-HJKMNP-TV-Z]{26}$")
    type = serializers.ChoiceField(choices=EVENT_TYPE_CHOICES)
    timestamp = serializers.DateTimeField(help_text="When the event was recorded (UTC).")
    workspace_id = serializers.UUIDField()
    data = serializers.DictField(help_text="The record, as the type's description shows it.")


class EventListSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    has_more = serializers.BooleanField(help_text="More events follow the last one listed.")
