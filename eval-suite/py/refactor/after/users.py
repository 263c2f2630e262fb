def active_emails(users):
    """Email addresses of the active users, lower-cased, in order."""
    return [user["email"].lower() for user in users if user.get("active")]


def count_active(users):
    """How many users are active."""
    return sum(1 for user in users if user.get("active"))
