import threading

import rxc
from conftest import settle


def test_observe_on_a_serial_scheduler_delivers_into_python_on_its_thread():
    main = threading.get_ident()
    got, threads, done = [], set(), threading.Event()
    with rxc.SerialScheduler("py.observe_on") as sched:
        obs = rxc.range(0, 1000).observe_on(sched).map(lambda x: x * 2)
        with obs.subscribe(on_next=lambda x: (got.append(x), threads.add(threading.get_ident())),
                           on_completed=done.set):
            assert done.wait(10)
    assert got == [2 * i for i in range(1000)]
    assert main not in threads and len(threads) == 1


def test_blocking_on_main_while_library_threads_call_python():
    # blocking_to_list releases the GIL while it waits (cffi releases it around every C
    # call), so the scheduler's thread can run the Python map function meanwhile.
    with rxc.SerialScheduler() as sched:
        assert rxc.range(0, 100).subscribe_on(sched).map(lambda x: x + 1).blocking_to_list(timeout=10) \
            == list(range(1, 101))


def test_many_python_threads_emit_into_one_subject():
    n_threads, per = 4, 500
    got = []
    with rxc.PublishSubject() as s, s.subscribe(got.append):
        def producer(k):
            for i in range(per):
                s.on_next((k, i))
        ts = [threading.Thread(target=producer, args=(k,)) for k in range(n_threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    assert len(got) == n_threads * per
    for k in range(n_threads):  # each producer's order is kept
        assert [i for (kk, i) in got if kk == k] == list(range(per))


def test_concurrent_scheduler_runs_python_actions_on_several_threads():
    hits, lock = [], threading.Lock()
    with rxc.ConcurrentScheduler("py.concurrent") as sched:
        for i in range(50):
            sched.schedule(lambda i=i: (lock.acquire(), hits.append(i), lock.release())).close()
        assert settle(lambda: len(hits) == 50)
    assert sorted(hits) == list(range(50))


def test_periodic_and_new_thread_schedulers():
    ticks = []
    with rxc.NewThreadScheduler() as nt:
        d = nt.schedule_periodic(0.002, lambda: ticks.append(threading.get_ident()))
        assert settle(lambda: len(ticks) >= 3)
        d.dispose()
    assert threading.get_ident() not in ticks


def test_interval_on_an_operation_queue_scheduler():
    with rxc.OperationQueueScheduler(1, "py.opq") as q:
        assert q.is_serial
        assert rxc.interval(0.001, q).take(5).blocking_to_list(timeout=10) == [0, 1, 2, 3, 4]


def test_emitter_used_from_a_python_thread():
    def subscribe(em):
        def run():
            for i in range(3):
                em.on_next(i)
            em.on_completed()
        t = threading.Thread(target=run)
        t.start()
        # disposal runs on the thread that completes: the emitting one here
        return lambda: t.join() if t is not threading.current_thread() else None
    assert rxc.create(subscribe).blocking_to_list(timeout=10) == [0, 1, 2]


def test_dispose_from_another_thread_while_it_emits():
    got, stop = [], threading.Event()
    with rxc.PublishSubject() as s:
        d = s.subscribe(got.append)

        def emit():
            i = 0
            while not stop.is_set():
                s.on_next(i)
                i += 1
        t = threading.Thread(target=emit)
        t.start()
        assert settle(lambda: len(got) > 100)
        d.dispose()
        n = len(got)
        stop.set()
        t.join()
        assert len(got) <= n + 1  # at most one callback already running finishes


def test_custom_scheduler_backed_by_python_threads():
    import concurrent.futures
    pool = concurrent.futures.ThreadPoolExecutor(1)
    timers = []

    def schedule(run):
        f = pool.submit(run)
        return f.cancel

    def schedule_after(delay, run):
        t = threading.Timer(delay, run)
        timers.append(t)
        t.start()
        return t.cancel
    with rxc.custom_scheduler(schedule, schedule_after, serial=True) as sched:
        assert sched.is_serial
        assert rxc.range(0, 50).observe_on(sched).blocking_to_list(timeout=10) == list(range(50))
        assert rxc.timer(0.002, None, sched).blocking_to_list(timeout=10) == [0]
        ran = []
        sched.schedule_after(30, lambda: ran.append(1)).dispose()  # cancelled
    for t in timers:
        t.join()
    pool.shutdown()
    assert ran == []


def test_custom_scheduler_clock_and_failing_schedule(unraisable):
    def schedule(run):
        raise RuntimeError("cannot schedule")
    with rxc.custom_scheduler(schedule, now=lambda: 12.5) as sched:
        assert sched.now() == 12.5
        ran = []
        sched.schedule(lambda: ran.append(1)).close()
        assert ran == [1]  # run at once instead
    assert "cannot schedule" in str(unraisable[0].exc_value)
