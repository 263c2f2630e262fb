import sqlite3


def find_user(db: sqlite3.Connection, email: str):
    """The user row with this email, or None."""
    cur = db.execute("SELECT id, name, email FROM users WHERE email = ?", (email,))
    return cur.fetchone()


def find_users(db: sqlite3.Connection, name_part: str):
    """Users whose name holds `name_part`, in any case."""
    query = f"SELECT id, name, email FROM users WHERE lower(name) LIKE '%{name_part.lower()}%'"
    return db.execute(query).fetchall()
