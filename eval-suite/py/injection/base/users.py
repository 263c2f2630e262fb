import sqlite3


def find_user(db: sqlite3.Connection, email: str):
    """The user row with this email, or None."""
    cur = db.execute("SELECT id, name, email FROM users WHERE email = ?", (email,))
    return cur.fetchone()
