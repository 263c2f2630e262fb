def active_emails(users):
    """Email addresses of the active users, lower-cased, in order."""
    out = []
    for user in users:
        if user.get("active"):
            out.append(user["email"].lower())
    return out


def count_active(users):
    """How many users are active."""
    return sum(1 for user in users if user.get("active"))
