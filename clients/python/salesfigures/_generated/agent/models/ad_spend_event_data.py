import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, Union, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .._dates import isoparse

T = TypeVar("T", bound="AdSpendEventData")


@_attrs_define
class AdSpendEventData:
    """
    Attributes:
        currency (str):
        amount (float): Major units.
        id (str): The record's own id, its identity.
        date (datetime.date):
        platform (str):
        utm_source (Union[None, str]):
        utm_medium (Union[None, str]):
        utm_campaign (Union[None, str]):
        utm_content (Union[None, str]):
        campaign_id (Union[None, str]):
        campaign_name (Union[None, str]):
        impressions (Union[None, int]):
        clicks (Union[None, int]):
    """

    currency: str
    amount: float
    id: str
    date: datetime.date
    platform: str
    utm_source: Union[None, str]
    utm_medium: Union[None, str]
    utm_campaign: Union[None, str]
    utm_content: Union[None, str]
    campaign_id: Union[None, str]
    campaign_name: Union[None, str]
    impressions: Union[None, int]
    clicks: Union[None, int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        amount = self.amount

        id = self.id

        date = self.date.isoformat()

        platform = self.platform

        utm_source: Union[None, str]
        utm_source = self.utm_source

        utm_medium: Union[None, str]
        utm_medium = self.utm_medium

        utm_campaign: Union[None, str]
        utm_campaign = self.utm_campaign

        utm_content: Union[None, str]
        utm_content = self.utm_content

        campaign_id: Union[None, str]
        campaign_id = self.campaign_id

        campaign_name: Union[None, str]
        campaign_name = self.campaign_name

        impressions: Union[None, int]
        impressions = self.impressions

        clicks: Union[None, int]
        clicks = self.clicks

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "amount": amount,
                "id": id,
                "date": date,
                "platform": platform,
                "utm_source": utm_source,
                "utm_medium": utm_medium,
                "utm_campaign": utm_campaign,
                "utm_content": utm_content,
                "campaign_id": campaign_id,
                "campaign_name": campaign_name,
                "impressions": impressions,
                "clicks": clicks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        currency = d.pop("currency")

        amount = d.pop("amount")

        id = d.pop("id")

        date = isoparse(d.pop("date")).date()

        platform = d.pop("platform")

        def _parse_utm_source(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        utm_source = _parse_utm_source(d.pop("utm_source"))

        def _parse_utm_medium(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        utm_medium = _parse_utm_medium(d.pop("utm_medium"))

        def _parse_utm_campaign(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        utm_campaign = _parse_utm_campaign(d.pop("utm_campaign"))

        def _parse_utm_content(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        utm_content = _parse_utm_content(d.pop("utm_content"))

        def _parse_campaign_id(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        campaign_id = _parse_campaign_id(d.pop("campaign_id"))

        def _parse_campaign_name(data: object) -> Union[None, str]:
            if data is None:
                return data
            return cast(Union[None, str], data)

        campaign_name = _parse_campaign_name(d.pop("campaign_name"))

        def _parse_impressions(data: object) -> Union[None, int]:
            if data is None:
                return data
            return cast(Union[None, int], data)

        impressions = _parse_impressions(d.pop("impressions"))

        def _parse_clicks(data: object) -> Union[None, int]:
            if data is None:
                return data
            return cast(Union[None, int], data)

        clicks = _parse_clicks(d.pop("clicks"))

        ad_spend_event_data = cls(
            currency=currency,
            amount=amount,
            id=id,
            date=date,
            platform=platform,
            utm_source=utm_source,
            utm_medium=utm_medium,
            utm_campaign=utm_campaign,
            utm_content=utm_content,
            campaign_id=campaign_id,
            campaign_name=campaign_name,
            impressions=impressions,
            clicks=clicks,
        )

        ad_spend_event_data.additional_properties = d
        return ad_spend_event_data

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
