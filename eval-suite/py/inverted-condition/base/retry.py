import time


def with_retries(call, attempts=3, delay=0.5):
    """Call `call()` until it succeeds, at most `attempts` times."""
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except ConnectionError:
            if attempt == attempts:
                raise
            time.sleep(delay * attempt)
