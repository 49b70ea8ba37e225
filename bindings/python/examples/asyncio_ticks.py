"""asyncio: `async for` over an interval, bounded, and awaiting a whole stream."""
import asyncio
from typing import List

import rxc
from rxc import aio


async def main() -> None:
    async for tick in rxc.interval(0.01).map(lambda n: n * n).take(4):
        print("tick", tick)
    async for x in aio.aiter(rxc.range(0, 1000), maxsize=3, policy="drop_oldest"):
        print("kept", x)  # 997 998 999
    values: List[int] = await aio.to_list(rxc.timer(0.01, 0.01, aio.scheduler()).take(3))
    print(values)


if __name__ == "__main__":
    asyncio.run(main())
