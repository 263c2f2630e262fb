import asyncio


async def fetch_all(client, urls, limit=4, timeout=10.0):
    """Fetch every URL, at most `limit` at once, each within `timeout` seconds."""
    gate = asyncio.Semaphore(limit)

    async def one(url):
        async with gate:
            return asyncio.wait_for(client.get(url), timeout)

    return await asyncio.gather(*(one(url) for url in urls))
