"""The Meta Ads provider: an access token and an ad account, read on a schedule."""

from __future__ import annotations

from workspaces.models import Member

from ..ads import AdPlatformProvider, UtmMappingForm
from ..base import CredentialField, OptionsPage
from . import backfill
from . import client as api

DEFAULT_SOURCE = "facebook"


class MetaUtmForm(UtmMappingForm):
    default_source = DEFAULT_SOURCE


class MetaProvider(AdPlatformProvider):
    platform = backfill.PLATFORM
    default_source = DEFAULT_SOURCE
    key = "meta"
    name = "Meta Ads"
    feeds = "ad spend"
    backfill_module = backfill
    credentials_help = (
        "The access token: Meta Business Settings → Users → System users → your system user "
        "→ Generate new token, with the ads_read permission (or a user token from the Graph "
        "API Explorer, which expires). The ad account ID: Meta Ads Manager → the account "
        "menu at the top left, or Business Settings → Accounts → Ad accounts: its digits, "
        "with or without act_ before them."
    )
    refused_step = "paste a new access token with the ads_read permission"
    credential_fields = (
        CredentialField(
            "access_token",
            "Meta access token",
            "it starts with EAA and is a long run of letters and digits.",
            r"EAA[A-Za-z0-9]{20,1000}",
        ),
        CredentialField(
            "ad_account_id",
            "Meta ad account ID",
            "it looks like act_1234567890 (or 1234567890, as Ads Manager shows it).",
            r"act_[0-9]{1,30}",
            secret=False,
            prefix="act_",
        ),
    )
    options_page = OptionsPage(
        "UTM values of the ads…",
        form=MetaUtmForm,
        template="integrations/ads_mapping.html",
        roles=Member.ADMIN_ROLES,
        saved="Saved; the stored spend of Meta Ads now carries these UTM values.",
    )

    def on_connect(self, *, connection, credentials, signing_secret=None) -> dict:
        """The ad account's currency must be the workspace's: refused, in words, if not."""
        account_id = credentials["ad_account_id"]
        account = api.account_read(api.api_for(credentials), account_id)
        currency = account.get("currency") or ""
        if currency != connection.workspace.currency:
            raise backfill.currency_refusal(
                account_id=account_id, currency=currency, workspace=connection.workspace
            )
        return {
            "account": {"id": account_id, "name": account.get("name", ""), "currency": currency}
        }


PROVIDER = MetaProvider()
