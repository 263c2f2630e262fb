import time


def with_retries(call, attempts=3, delay=0.5, retryable=lambda error: True):
    """Call `call()` until it succeeds, at most `attempts` times.

    Errors `retryable` rejects are raised at once.
    """
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except ConnectionError as error:
            if attempt == attempts or retryable(error):
                raise
            time.sleep(delay * attempt)
