from django.apps import AppConfig


class AgentapiConfig(AppConfig):
    name = "agentapi"
    default_auto_field = "django.db.models.BigAutoField"
