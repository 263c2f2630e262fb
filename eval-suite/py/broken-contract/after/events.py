import time


def event(kind, user_id, **fields):
    """An event record as the report reads it, stamped with the time."""
    return {"type": kind, "user": user_id, "at": time.time(), **fields}
