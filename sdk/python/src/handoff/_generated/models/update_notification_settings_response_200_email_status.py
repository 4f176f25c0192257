from typing import Literal

UpdateNotificationSettingsResponse200EmailStatus = Literal["bouncing", "ok"]

UPDATE_NOTIFICATION_SETTINGS_RESPONSE_200_EMAIL_STATUS_VALUES: set[
    UpdateNotificationSettingsResponse200EmailStatus
] = {
    "bouncing",
    "ok",
}


def check_update_notification_settings_response_200_email_status(
    value: str,
) -> UpdateNotificationSettingsResponse200EmailStatus:
    if value in UPDATE_NOTIFICATION_SETTINGS_RESPONSE_200_EMAIL_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPDATE_NOTIFICATION_SETTINGS_RESPONSE_200_EMAIL_STATUS_VALUES!r}"
    )
