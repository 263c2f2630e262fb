def mean(values):
    """The arithmetic mean of a non-empty list."""
    return sum(values) / len(values)


def moving_average(values, window):
    """Averages of each run of `window` consecutive values."""
    if window <= 0:
        raise ValueError("window must be positive")
    out = []
    for start in range(len(values) - window + 1):
        chunk = values[start:start + window]
        out.append(sum(chunk) / window)
    return out
