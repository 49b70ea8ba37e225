import os
import select
import threading

import rxc


def test_main_run_until_stopped_from_another_thread():
    ran = []
    main = rxc.main_scheduler()
    with rxc.SerialScheduler() as bg:
        rxc.timer(0.01, None, bg).subscribe(on_next=lambda _: main.schedule(lambda: (
            ran.append(threading.get_ident()), rxc.main_stop())).close())
        rxc.main_run()
    assert ran == [threading.get_ident()]


def test_main_fd_and_drain():
    main = rxc.main_scheduler()
    ran = []

    def from_thread():
        main.schedule(lambda: ran.append(1)).close()
    t = threading.Thread(target=from_thread)
    t.start()
    t.join()
    fd = rxc.main_fd()
    readable, _, _ = select.select([fd], [], [], 5)
    assert readable == [fd]
    assert rxc.main_drain() >= 1 and ran == [1]


def test_driver_delivers_on_main_and_never_errors():
    got = []
    with rxc.PublishSubject() as s:
        driver = s.map(lambda x: 10 // x).as_driver(on_error_value=-1)
        with rxc.SerialScheduler() as bg:
            with driver.drive(on_next=lambda v: got.append((v, threading.get_ident())),
                              on_completed=rxc.main_stop):
                def feed():
                    s.on_next(5)
                    s.on_next(0)  # ZeroDivisionError: the driver emits -1 and completes
                bg.schedule(feed).close()
                rxc.main_run_for(10)
    me = threading.get_ident()
    assert got == [(2, me), (-1, me)]


def test_virtual_time_operators():
    ts = rxc.TestScheduler()
    assert ts.now() == 0
    src = ts.hot("-a-b-c-d-|")
    assert ts.expect(src.sample(rxc.interval(3 * ts.FRAME, ts)), "---b--c--(d|)")
    ts2 = rxc.TestScheduler()
    assert ts2.expect(ts2.cold("-1-2|").delay_subscription(2 * ts2.FRAME, ts2), "---1-2|")
    ts3 = rxc.TestScheduler()
    got = []
    d = ts3.cold("-1-2-3-4-5|").buffer(span=4 * ts3.FRAME, scheduler=ts3).subscribe(got.append)
    ts3.advance_by(20 * ts3.FRAME)
    assert got == [[1, 2], [3, 4], [5]] and ts3.now() == 20 * ts3.FRAME
    d.dispose()
    for t in (ts, ts2, ts3):
        t.close()


def test_share_runs_one_source_subscription():
    count = []

    def sub(em):
        count.append(1)
    shared = rxc.create(sub).share()
    with shared.subscribe(lambda x: None), shared.subscribe(lambda x: None):
        assert count == [1]
