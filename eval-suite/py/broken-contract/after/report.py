def users_by_kind(events):
    """For each event kind, the set of users who did it."""
    out = {}
    for e in events:
        out.setdefault(e["kind"], set()).add(e["user_id"])
    return out
