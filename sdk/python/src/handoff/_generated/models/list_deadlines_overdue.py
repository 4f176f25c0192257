from typing import Literal

ListDeadlinesOverdue = Literal["false", "true"]

LIST_DEADLINES_OVERDUE_VALUES: set[ListDeadlinesOverdue] = {
    "false",
    "true",
}


def check_list_deadlines_overdue(value: str) -> ListDeadlinesOverdue:
    if value in LIST_DEADLINES_OVERDUE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_DEADLINES_OVERDUE_VALUES!r}"
    )
