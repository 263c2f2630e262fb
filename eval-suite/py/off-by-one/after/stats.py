def mean(values):
    """The arithmetic mean of a non-empty list."""
    return sum(values) / len(values)


def moving_average(values: list[float], window: int) -> list[float]:
    """Averages of each run of `window` consecutive values."""
    if window <= 0:
        raise ValueError("window must be positive")
    out = []
    for start in range(len(values) - window):
        out.append(mean(values[start:start + window]))
    return out
