"""What the ad platforms (Meta Ads, Google Ads) share: a day's spend of a campaign
written through the AdSpend writer, and how a connection's campaigns map to the UTM
values its ads' links carry, so the spend meets the leads those ads brought.

Each ad connection keeps in its options (``options["utm"]``) the ``utm_source`` its ads
set (by default the platform's: ``facebook`` for Meta, ``google`` for Google) and whether
``utm_campaign`` is the campaign's name (the default) or its id. A person changes it on
the connection's options page; the stored rows of that connection are then written again
with the new values, through the writer, in the transaction that keeps the options.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django import forms

from workspaces.models import AdSpend
from workspaces.services import ad_spend_upsert

from .base import PulledProvider

CAMPAIGN_NAME = "name"
CAMPAIGN_ID = "id"
CAMPAIGN_CHOICES = (
    (CAMPAIGN_NAME, "The campaign's name, as the ad platform shows it"),
    (CAMPAIGN_ID, "The campaign's id (its number at the ad platform)"),
)
SOURCE_MAX = 200


@dataclass(frozen=True)
class SpendRow:
    """One campaign's spend on one day, as a platform reported it, in the workspace's
    minor units."""

    campaign_id: str
    campaign_name: str
    day: date
    amount: int
    impressions: int | None = None
    clicks: int | None = None

    def as_record(self) -> dict:
        return {
            "campaign_id": self.campaign_id,
            "campaign_name": self.campaign_name,
            "date": self.day.isoformat(),
            "amount": self.amount,
            "impressions": self.impressions,
            "clicks": self.clicks,
        }


def utm_mapping(connection, *, default_source: str) -> dict[str, str]:
    """{"source": …, "campaign": "name" | "id"}: the connection's, else the defaults."""
    chosen = (connection.options or {}).get("utm")
    chosen = chosen if isinstance(chosen, dict) else {}
    source = chosen.get("source")
    campaign = chosen.get("campaign")
    return {
        "source": source if isinstance(source, str) and source else default_source,
        "campaign": campaign if campaign in (CAMPAIGN_NAME, CAMPAIGN_ID) else CAMPAIGN_NAME,
    }


def _utm_values(mapping: dict, *, campaign_id: str, campaign_name: str) -> dict[str, str]:
    campaign = campaign_id if mapping["campaign"] == CAMPAIGN_ID else campaign_name
    return {"utm_source": mapping["source"][:SOURCE_MAX], "utm_campaign": campaign[:SOURCE_MAX]}


def external_id(platform: str, campaign_id: str, day) -> str:
    """The row's own id: a platform's revision of the day replaces the amount."""
    return f"{platform}:{campaign_id}:{day}"


def spend_write(*, connection, records: list[dict], platform: str, default_source: str) -> int:
    """Write each record (a SpendRow's as_record()) through the AdSpend writer, keyed on
    ``<platform>:<campaign id>:<day>``; returns how many rows were written."""
    mapping = utm_mapping(connection, default_source=default_source)
    written = 0
    for record in records:
        day = date.fromisoformat(record["date"])
        ad_spend_upsert(
            workspace=connection.workspace,
            external_id=external_id(platform, record["campaign_id"], day),
            date=day,
            platform=platform,
            amount=record["amount"],
            campaign_id=record["campaign_id"][:SOURCE_MAX],
            campaign_name=record["campaign_name"][:SOURCE_MAX],
            impressions=record.get("impressions"),
            clicks=record.get("clicks"),
            **_utm_values(
                mapping, campaign_id=record["campaign_id"], campaign_name=record["campaign_name"]
            ),
        )
        written += 1
    return written


def spend_remap(*, connection, platform: str, default_source: str) -> int:
    """Write the connection's stored rows again with its mapping (after a person changed
    it), through the writer; returns how many rows changed."""
    mapping = utm_mapping(connection, default_source=default_source)
    rows = AdSpend.objects.filter(
        workspace=connection.workspace,
        platform=platform,
        external_id__startswith=f"{platform}:",
    ).order_by("date", "external_id")
    changed = 0
    for row in rows:
        values = _utm_values(mapping, campaign_id=row.campaign_id, campaign_name=row.campaign_name)
        if all(getattr(row, name) == value for name, value in values.items()):
            continue
        ad_spend_upsert(
            workspace=connection.workspace,
            external_id=row.external_id,
            date=row.date,
            platform=row.platform,
            amount=row.amount,
            utm_medium=row.utm_medium,
            utm_content=row.utm_content,
            campaign_id=row.campaign_id,
            campaign_name=row.campaign_name,
            impressions=row.impressions,
            clicks=row.clicks,
            **values,
        )
        changed += 1
    return changed


class UtmMappingForm(forms.Form):
    """How the connection's ads set their UTM values: the source, and what the campaign
    is. Saving it writes the connection's stored spend again with the new values."""

    source = forms.CharField(
        label="utm_source your ads set",
        max_length=SOURCE_MAX,
        help_text="The utm_source in your ads' links, exactly (for example facebook).",
        error_messages={"required": "Enter the utm_source your ads' links carry."},
    )
    campaign = forms.ChoiceField(
        label="utm_campaign your ads set is",
        choices=CAMPAIGN_CHOICES,
        widget=forms.RadioSelect,
    )

    # The platform's own source, set by each provider's subclass.
    default_source = ""

    def __init__(self, *args, connection, **kwargs):
        super().__init__(*args, **kwargs)
        self.connection = connection

    @classmethod
    def initial_for(cls, connection) -> dict:
        return utm_mapping(connection, default_source=cls.default_source)

    def options(self) -> dict:
        return {
            "utm": {
                "source": self.cleaned_data["source"],
                "campaign": self.cleaned_data["campaign"],
            }
        }

    def before(self) -> dict:
        return {"utm": utm_mapping(self.connection, default_source=self.default_source)}


class AdPlatformProvider(PulledProvider):
    """An ad platform: its rows are a day's spend of a campaign, written through the AdSpend
    writer with the UTM values the connection's mapping gives (``default_source`` when it
    names none), and written again when the mapping changes."""

    platform: str
    default_source: str

    def write(self, *, connection, records) -> int:
        return spend_write(
            connection=connection,
            records=records,
            platform=self.platform,
            default_source=self.default_source,
        )

    def options_changed(self, *, connection, before, after) -> dict:
        changed = spend_remap(
            connection=connection, platform=self.platform, default_source=self.default_source
        )
        return {"rows_remapped": changed}
