import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast

from attrs import define as _attrs_define

from .._dates import isoparse
from ..types import UNSET, Unset

T = TypeVar("T", bound="AdSpendWriteRequest")


@_attrs_define
class AdSpendWriteRequest:
    """Refuses members it does not name.

    Attributes:
        id (str): The record's own id (the platform's): writing the same id again replaces the record.
        date (datetime.date): The day the money was spent (YYYY-MM-DD), a day of the workspace's timezone.
        platform (str): meta, google, or any key of 1 to 32 lowercase letters, digits, '_' or '-'.
        amount (Union[float, str]): Major units of the workspace currency, zero or more.
        utm_source (Union[None, Unset, str]): The utm_source value the ads carry; absent or null: none.
        utm_medium (Union[None, Unset, str]): The utm_medium value the ads carry; absent or null: none.
        utm_campaign (Union[None, Unset, str]): The utm_campaign value the ads carry; absent or null: none.
        utm_content (Union[None, Unset, str]): The utm_content value the ads carry; absent or null: none.
        campaign_id (Union[None, Unset, str]):
        campaign_name (Union[None, Unset, str]):
        impressions (Union[None, Unset, int]):
        clicks (Union[None, Unset, int]):
        currency (Union[Unset, str]): The workspace's currency, if given; another is refused.
    """

    id: str
    date: datetime.date
    platform: str
    amount: Union[float, str]
    utm_source: Union[None, Unset, str] = UNSET
    utm_medium: Union[None, Unset, str] = UNSET
    utm_campaign: Union[None, Unset, str] = UNSET
    utm_content: Union[None, Unset, str] = UNSET
    campaign_id: Union[None, Unset, str] = UNSET
    campaign_name: Union[None, Unset, str] = UNSET
    impressions: Union[None, Unset, int] = UNSET
    clicks: Union[None, Unset, int] = UNSET
    currency: Union[Unset, str] = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        date = self.date.isoformat()

        platform = self.platform

        amount: Union[float, str]
        amount = self.amount

        utm_source: Union[None, Unset, str]
        if isinstance(self.utm_source, Unset):
            utm_source = UNSET
        else:
            utm_source = self.utm_source

        utm_medium: Union[None, Unset, str]
        if isinstance(self.utm_medium, Unset):
            utm_medium = UNSET
        else:
            utm_medium = self.utm_medium

        utm_campaign: Union[None, Unset, str]
        if isinstance(self.utm_campaign, Unset):
            utm_campaign = UNSET
        else:
            utm_campaign = self.utm_campaign

        utm_content: Union[None, Unset, str]
        if isinstance(self.utm_content, Unset):
            utm_content = UNSET
        else:
            utm_content = self.utm_content

        campaign_id: Union[None, Unset, str]
        if isinstance(self.campaign_id, Unset):
            campaign_id = UNSET
        else:
            campaign_id = self.campaign_id

        campaign_name: Union[None, Unset, str]
        if isinstance(self.campaign_name, Unset):
            campaign_name = UNSET
        else:
            campaign_name = self.campaign_name

        impressions: Union[None, Unset, int]
        if isinstance(self.impressions, Unset):
            impressions = UNSET
        else:
            impressions = self.impressions

        clicks: Union[None, Unset, int]
        if isinstance(self.clicks, Unset):
            clicks = UNSET
        else:
            clicks = self.clicks

        currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "date": date,
                "platform": platform,
                "amount": amount,
            }
        )
        if utm_source is not UNSET:
            field_dict["utm_source"] = utm_source
        if utm_medium is not UNSET:
            field_dict["utm_medium"] = utm_medium
        if utm_campaign is not UNSET:
            field_dict["utm_campaign"] = utm_campaign
        if utm_content is not UNSET:
            field_dict["utm_content"] = utm_content
        if campaign_id is not UNSET:
            field_dict["campaign_id"] = campaign_id
        if campaign_name is not UNSET:
            field_dict["campaign_name"] = campaign_name
        if impressions is not UNSET:
            field_dict["impressions"] = impressions
        if clicks is not UNSET:
            field_dict["clicks"] = clicks
        if currency is not UNSET:
            field_dict["currency"] = currency

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        date = isoparse(d.pop("date")).date()

        platform = d.pop("platform")

        def _parse_amount(data: object) -> Union[float, str]:
            return cast(Union[float, str], data)

        amount = _parse_amount(d.pop("amount"))

        def _parse_utm_source(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        utm_source = _parse_utm_source(d.pop("utm_source", UNSET))

        def _parse_utm_medium(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        utm_medium = _parse_utm_medium(d.pop("utm_medium", UNSET))

        def _parse_utm_campaign(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        utm_campaign = _parse_utm_campaign(d.pop("utm_campaign", UNSET))

        def _parse_utm_content(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        utm_content = _parse_utm_content(d.pop("utm_content", UNSET))

        def _parse_campaign_id(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        campaign_id = _parse_campaign_id(d.pop("campaign_id", UNSET))

        def _parse_campaign_name(data: object) -> Union[None, Unset, str]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, str], data)

        campaign_name = _parse_campaign_name(d.pop("campaign_name", UNSET))

        def _parse_impressions(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        impressions = _parse_impressions(d.pop("impressions", UNSET))

        def _parse_clicks(data: object) -> Union[None, Unset, int]:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Union[None, Unset, int], data)

        clicks = _parse_clicks(d.pop("clicks", UNSET))

        currency = d.pop("currency", UNSET)

        ad_spend_write_request = cls(
            id=id,
            date=date,
            platform=platform,
            amount=amount,
            utm_source=utm_source,
            utm_medium=utm_medium,
            utm_campaign=utm_campaign,
            utm_content=utm_content,
            campaign_id=campaign_id,
            campaign_name=campaign_name,
            impressions=impressions,
            clicks=clicks,
            currency=currency,
        )

        return ad_spend_write_request
