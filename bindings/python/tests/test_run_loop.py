import threading
import time

import pytest

import rxc


def test_a_loop_runs_work_on_the_thread_that_drives_it():
    seen = []
    with rxc.RunLoop() as loop:
        s = loop.scheduler
        done = threading.Event()

        def driver():
            s.schedule(lambda: seen.append(threading.get_ident()))
            loop.drain()  # binds the loop to this thread
            s.schedule_after(0.01, loop.stop)
            loop.run()
            done.set()

        t = threading.Thread(target=driver)
        t.start()
        t.join(10)
        assert done.is_set()
        assert seen == [t.ident]
        s.close()



def test_work_from_another_thread_wakes_the_loop_fd_and_drain_runs_it():
    import select
    with rxc.RunLoop() as loop:
        assert loop.drain() == 0  # binds it to this thread
        fd = loop.fd
        s = loop.scheduler
        ran = []
        threading.Thread(target=lambda: s.schedule(lambda: ran.append(1))).start()
        r, _, _ = select.select([fd], [], [], 5)
        assert r == [fd]
        assert loop.drain() == 1
        assert ran == [1]
        s.close()


def test_run_for_returns_after_its_timeout():
    with rxc.RunLoop() as loop:
        t0 = time.monotonic()
        loop.run_for(0.02)
        assert time.monotonic() - t0 >= 0.015


def test_running_a_loop_bound_elsewhere_is_an_invalid_state():
    with rxc.RunLoop() as loop:
        loop.drain()  # bound to this thread
        errors = []

        def other():
            try:
                loop.run_for(0.001)
            except rxc.InvalidStateError as e:
                errors.append(str(e))

        t = threading.Thread(target=other)
        t.start()
        t.join(5)
        assert errors and "bound" in errors[0]


def test_the_main_loop_is_the_main_schedulers():
    loop = rxc.RunLoop.main()
    ran = []
    rxc.main_scheduler().schedule(lambda: ran.append(1))
    loop.drain()
    assert ran == [1]
    loop.close()  # a no-op for the shared main loop
    rxc.main_scheduler().schedule(lambda: ran.append(2))
    rxc.RunLoop.main().drain()
    assert ran == [1, 2]


def test_a_closed_loop_refuses_use():
    loop = rxc.RunLoop()
    loop.close()
    with pytest.raises(ValueError):
        loop.drain()
