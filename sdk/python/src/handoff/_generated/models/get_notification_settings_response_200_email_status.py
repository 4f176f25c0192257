from typing import Literal

GetNotificationSettingsResponse200EmailStatus = Literal["bouncing", "ok"]

GET_NOTIFICATION_SETTINGS_RESPONSE_200_EMAIL_STATUS_VALUES: set[
    GetNotificationSettingsResponse200EmailStatus
] = {
    "bouncing",
    "ok",
}


def check_get_notification_settings_response_200_email_status(
    value: str,
) -> GetNotificationSettingsResponse200EmailStatus:
    if value in GET_NOTIFICATION_SETTINGS_RESPONSE_200_EMAIL_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {GET_NOTIFICATION_SETTINGS_RESPONSE_200_EMAIL_STATUS_VALUES!r}"
    )
