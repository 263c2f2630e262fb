def tail(path, n=10):
    """The last `n` lines of the file at `path`."""
    with open(path, encoding="utf-8") as handle:
        return handle.readlines()[-n:]


def count_errors(lines):
    """How many lines mention ERROR."""
    return sum(1 for line in lines if "ERROR" in line)
