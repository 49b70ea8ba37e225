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


@pytest.mark.parametrize("policy, expected", [
    ("drop_newest", list(range(10))),
    ("drop_oldest", list(range(990, 1000))),
    ("keep_latest", [999]),
])
def test_async_for_is_bounded_by_maxsize(policy, expected):
    async def main():
        return [x async for x in aio.aiter(rxc.range(0, 1000), maxsize=10, policy=policy)]
    assert run(main()) == expected


def test_async_for_fails_on_overflow_with_policy_fail():
    async def main():
        got = []
        with pytest.raises(rxc.RxError) as e:
            async for x in aio.aiter(rxc.range(0, 100), maxsize=5, policy="fail"):
                got.append(x)
        return got, e.value
    got, err = run(main())
    assert got == [0, 1, 2, 3, 4] and err.code == rxc.ERROR_OVERFLOW


def test_async_for_applies_the_bounded_operators_policy():
    # the case: a 1 ms consumer over observe_on_bounded(capacity 64, drop oldest)
    async def main():
        dropped = []
        with rxc.SerialScheduler("producer") as bg:
            src = rxc.range(0, 2000).subscribe_on(bg).observe_on_bounded(
                rxc.default_scheduler(), 64, "drop_oldest", on_dropped=dropped.append)
            got = []
            async for x in src:
                got.append(x)
                await asyncio.sleep(0.001)
        return got, dropped
    got, dropped = run(main())
    assert len(got) < 2000 and dropped, (len(got), len(dropped))
    assert got == sorted(got) and got[-1] == 1999
    assert len(got) + len(dropped) >= 2000 - 64  # what was neither delivered nor dropped waits nowhere


def test_aiter_rejects_bad_arguments():
    async def main():
        with pytest.raises(ValueError, match="policy"):
            aio.aiter(rxc.of(1), maxsize=3, policy="sometimes")
        with pytest.raises(ValueError, match="maxsize"):
            aio.aiter(rxc.of(1), maxsize=0)
    run(main())


def test_operators_module_pipes_as_in_rxpy():
    from rxc import operators as ops
    obs = rxc.range(0, 10).pipe(ops.map(lambda x: x * x), ops.filter(lambda x: x % 2))
    assert obs.blocking_to_list() == [1, 9, 25, 49, 81]
    both = rxc.pipe(ops.skip(1), ops.take(2), ops.scan(lambda a, x: a + x, 0))
    assert both(rxc.of(5, 6, 7, 8)).blocking_to_list() == [6, 13]
