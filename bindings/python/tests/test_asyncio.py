import asyncio
import threading

import pytest

import rxc
from conftest import settle
from rxc import aio


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 20))


def test_async_for_over_a_synchronous_source():
    async def main():
        return [x async for x in rxc.range(0, 5).map(lambda x: x * 10)]
    assert run(main()) == [0, 10, 20, 30, 40]


def test_async_for_over_a_source_on_another_thread():
    async def main():
        with rxc.SerialScheduler() as s:
            return [x async for x in rxc.interval(0.001, s).take(5)]
    assert run(main()) == [0, 1, 2, 3, 4]


def test_async_for_raises_the_stream_error():
    async def main():
        got = []
        with pytest.raises(rxc.RxError) as e:
            async for x in rxc.of(1, 2).concat(rxc.throw(rxc.RxError("late", 1234))):
                got.append(x)
        return got, e.value.code
    assert run(main()) == ([1, 2], 1234)


def test_leaving_async_for_early_disposes_the_subscription():
    disposed = []

    async def main():
        src = rxc.interval(0.001, rxc.default_scheduler()).do(on_disposed=lambda: disposed.append(1))
        async for x in src:
            if x == 2:
                break
        await asyncio.sleep(0.01)
    run(main())
    # on_disposed may follow on the thread delivering a tick at that moment
    assert settle(lambda: disposed == [1])


def test_loop_scheduler_runs_work_on_the_loop_thread():
    async def main():
        loop = asyncio.get_running_loop()
        sched = aio.scheduler()
        done = loop.create_future()
        where = []

        def from_other_thread():  # schedule from a foreign thread, run on the loop's
            sched.schedule(lambda: (where.append(threading.get_ident()),
                                    done.set_result(None))).close()
        t = threading.Thread(target=from_other_thread)
        t.start()
        t.join()
        await done
        values = []
        with rxc.SerialScheduler() as bg:
            fin = loop.create_future()
            with rxc.range(0, 3).subscribe_on(bg).observe_on(sched).subscribe(
                    on_next=lambda x: values.append((x, threading.get_ident())),
                    on_completed=lambda: fin.set_result(None)):
                await fin
        return where, values
    where, values = run(main())
    me = threading.get_ident()
    assert where == [me] and values == [(0, me), (1, me), (2, me)]


def test_timers_on_the_loop_scheduler():
    async def main():
        return await aio.to_list(rxc.timer(0.005, 0.001, aio.scheduler()).take(3))
    assert run(main()) == [0, 1, 2]


def test_threadsafe_async_iteration_on_a_loop_in_another_thread():
    result = []

    def thread_main():
        async def main():
            with rxc.SerialScheduler() as s:
                return [x async for x in aio.aiter(rxc.range(0, 4).observe_on(s), threadsafe=True)]
        result.append(asyncio.run(main()))
    t = threading.Thread(target=thread_main)
    t.start()
    t.join(20)
    assert result == [[0, 1, 2, 3]]


def test_loop_scheduler_off_the_main_thread_runs_work_on_that_thread():
    result = []

    def thread_main():
        async def main():
            me = threading.get_ident()
            sched = aio.scheduler()
            got = await aio.to_list(rxc.interval(0.001, sched).take(3).map(
                lambda x: (x, threading.get_ident() == me)))
            result.append(got)
            async for x in rxc.range(0, 3):  # delivered through this thread's run loop
                result.append(x)
            aio.detach()
        asyncio.run(main())
    t = threading.Thread(target=thread_main)
    t.start()
    t.join(20)
    assert result == [[[0, True], [1, True], [2, True]], 0, 1, 2]  # tuples come back as lists


def test_threadsafe_scheduler_on_a_loop_in_another_thread():
    result = []

    def thread_main():
        async def main():
            loop = asyncio.get_running_loop()
            sched = aio.threadsafe_scheduler()
            me = threading.get_ident()
            got = await aio.to_list(rxc.interval(0.001, sched).take(3).map(
                lambda x: (x, threading.get_ident() == me)))
            with rxc.SerialScheduler() as bg:
                got += await aio.to_list(rxc.range(10, 2).subscribe_on(bg).observe_on(sched).map(
                    lambda x: (x, threading.get_ident() == me)))
            sched.close()
            await asyncio.sleep(0.01)
            return got
        result.append(asyncio.run(main()))
    t = threading.Thread(target=thread_main)
    t.start()
    t.join(20)
    assert result == [[[0, True], [1, True], [2, True], [10, True], [11, True]]]  # tuples travel as lists
