def event(kind, user_id, **fields):
    """An event record as the report reads it."""
    return {"kind": kind, "user_id": user_id, **fields}
