def tail(path, n=10, grep=None):
    """The last `n` lines of the file at `path`; with `grep`, only lines holding it."""
    handle = open(path, encoding="utf-8")
    lines = handle.readlines()
    if grep is not None:
        lines = [line for line in lines if grep in line]
    return lines[-n:]


def count_errors(lines):
    """How many lines mention ERROR."""
    return sum(1 for line in lines if "ERROR" in line)
