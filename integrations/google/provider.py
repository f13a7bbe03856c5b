"""The Google Ads provider: an OAuth client, a refresh token, a developer token and a
customer id, read on a schedule."""

from __future__ import annotations

from workspaces.models import Member

from ..ads import AdPlatformProvider, UtmMappingForm
from ..base import CredentialField, OptionsPage
from . import backfill
from .client import GoogleAdsClient, digits

DEFAULT_SOURCE = "google"
_CUSTOMER_ID = r"[0-9]{3}-?[0-9]{3}-?[0-9]{4}"


class GoogleUtmForm(UtmMappingForm):
    default_source = DEFAULT_SOURCE


class GoogleAdsProvider(AdPlatformProvider):
    platform = backfill.PLATFORM
    default_source = DEFAULT_SOURCE
    key = "google"
    name = "Google Ads"
    feeds = "ad spend"
    backfill_module = backfill
    credentials_help = (
        "The developer token: Google Ads → Tools → API Center (of a manager account). The "
        "OAuth client ID and secret: Google Cloud console → APIs & Services → Credentials → "
        "your OAuth client (with the Google Ads API enabled). The refresh token: from that "
        "client's consent flow with the scope https://www.googleapis.com/auth/adwords (for "
        "example Google's OAuth Playground with your own client). The customer ID: the "
        "ten-digit number at the top right of Google Ads; the login customer ID is the "
        "manager account's, when you reach the account through one."
    )
    refused_step = "paste a new refresh token (and check the developer token's access)"
    credential_fields = (
        CredentialField(
            "developer_token",
            "Google Ads developer token",
            "22 letters, digits, dashes or underscores.",
            r"[A-Za-z0-9_-]{20,40}",
        ),
        CredentialField(
            "client_id",
            "OAuth client ID",
            "it ends with .apps.googleusercontent.com.",
            r"[0-9]{1,30}-[a-z0-9]{1,64}\.apps\.googleusercontent\.com",
            secret=False,
        ),
        CredentialField(
            "client_secret",
            "OAuth client secret",
            "it often starts with GOCSPX-.",
            r"[A-Za-z0-9_-]{20,80}",
        ),
        CredentialField(
            "refresh_token",
            "OAuth refresh token",
            "it starts with 1//.",
            r"1//[A-Za-z0-9_-]{20,500}",
        ),
        CredentialField(
            "customer_id",
            "Google Ads customer ID",
            "ten digits, such as 123-456-7890.",
            _CUSTOMER_ID,
            secret=False,
        ),
        CredentialField(
            "login_customer_id",
            "Manager account's customer ID",
            "ten digits, such as 123-456-7890; only when a manager account gives access.",
            _CUSTOMER_ID,
            secret=False,
            required=False,
        ),
    )
    options_page = OptionsPage(
        "UTM values of the ads…",
        form=GoogleUtmForm,
        template="integrations/ads_mapping.html",
        roles=Member.ADMIN_ROLES,
        saved="Saved; the stored spend of Google Ads now carries these UTM values.",
    )

    def on_connect(self, *, connection, credentials, signing_secret=None) -> dict:
        """The account's currency must be the workspace's: refused, in words, if not."""
        customer_id = digits(credentials["customer_id"])
        with GoogleAdsClient(credentials) as client:
            customer = backfill.customer_read(client, customer_id)
        currency = customer.get("currencyCode") or ""
        if currency != connection.workspace.currency:
            raise backfill.currency_refusal(
                customer_id=customer_id, currency=currency, workspace=connection.workspace
            )
        return {
            "account": {
                "id": customer_id,
                "name": customer.get("descriptiveName", ""),
                "currency": currency,
            }
        }


PROVIDER = GoogleAdsProvider()
