"""How request bodies are read: one serializer idiom for every input, and one way a
serializer's errors become the 400 that names the first wrong field (dotted when nested,
`team.2.email`)."""

from rest_framework import serializers

from .errors import ApiError, InvalidField, first_field_error


def validated(serializer_class, data, *, context=None, prefix: str = "", partial=False) -> dict:
    """The serializer's validated data, or a 400 naming the first field that is wrong."""
    if not isinstance(data, dict):
        if prefix:
            raise InvalidField(prefix, f"{prefix} must be a JSON object.")
        raise ApiError("The body must be a JSON object.", reason="invalid_body", field="body")
    serializer = serializer_class(data=data, context=context or {}, partial=partial)
    if serializer.is_valid():
        return serializer.validated_data
    field, message = first_field_error(serializer.errors) or ("", "is not valid.")
    name = ".".join(part for part in (prefix, field) if part) or "body"
    raise InvalidField(name, f"{name}: {message}")


class StrictSerializer(serializers.Serializer):
    """Refuses members it does not name."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = [key for key in data if key not in self.fields]
            if unknown:
                raise serializers.ValidationError(
                    {str(unknown[0]): [f"Unknown field; this body takes {', '.join(self.fields)}."]}
                )
        return super().to_internal_value(data)
