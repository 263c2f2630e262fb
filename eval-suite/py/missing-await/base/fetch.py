import asyncio


async def fetch_all(client, urls, limit=4):
    """Fetch every URL, at most `limit` at once; results in the order of `urls`."""
    gate = asyncio.Semaphore(limit)

    async def one(url):
        async with gate:
            return await client.get(url)

    return await asyncio.gather(*(one(url) for url in urls))
