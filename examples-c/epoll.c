/*
 * epoll.c — driving the main scheduler from the program's own event loop.
 *
 * A program with its own epoll loop (or libuv, GLib...) adds rx_main_fd() to its set: the fd
 * is readable exactly while main-scheduler work is pending, and rx_main_drain() runs it.
 * Here the loop also watches a timerfd of its own. Work reaches main three ways: values of a
 * background interval observed on main, a delayed action, and an action scheduled from
 * another thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "rxc.h"

static int values_seen;
static int delayed_ran;
static int posted_ran;

static void on_value(void *ctx, rx_value v) {
  printf("  main: interval value %lld (from a background scheduler)\n", (long long)v.i);
  values_seen++;
}

static void delayed(void *ctx) {
  printf("  main: delayed action (scheduled 120 ms ahead)\n");
  delayed_ran = 1;
}

static void posted(void *ctx) {
  printf("  main: action posted from another thread\n");
  posted_ran = 1;
}

static void *poster(void *ctx) {
  struct timespec ms = {0, 60 * 1000000};
  nanosleep(&ms, NULL);
  return rx_schedule(rx_scheduler_main(), posted, NULL, NULL);
}

int main(void) {
  int64_t live_at_start = rx_debug_live_objects();
  int ep = epoll_create1(EPOLL_CLOEXEC);
  int main_fd = rx_main_fd();
  struct epoll_event ev = {.events = EPOLLIN, .data.fd = main_fd};
  epoll_ctl(ep, EPOLL_CTL_ADD, main_fd, &ev);

  int own_timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  struct itimerspec every_50ms = {{0, 50 * 1000000}, {0, 50 * 1000000}};
  timerfd_settime(own_timer, 0, &every_50ms, NULL);
  ev = (struct epoll_event){.events = EPOLLIN, .data.fd = own_timer};
  epoll_ctl(ep, EPOLL_CTL_ADD, own_timer, &ev);

  rx_scheduler *background = rx_scheduler_serial_new("epoll.background");
  rx_observable *ticks = rx_interval(30 * 1000000, background);
  rx_observable *on_main = rx_observe_on(ticks, rx_scheduler_main());
  rx_disposable *sub = rx_subscribe(on_main, (rx_observer){.on_next = on_value});
  rx_disposable *later = rx_schedule_after(rx_scheduler_main(), 120 * 1000000, delayed, NULL, NULL);
  pthread_t thread;
  pthread_create(&thread, NULL, poster, NULL);

  int own_ticks = 0, drains = 0;
  size_t ran = 0;
  while (values_seen < 6 || !delayed_ran || !posted_ran) {
    struct epoll_event ready[4];
    int n = epoll_wait(ep, ready, 4, 1000);
    if (n <= 0) break;
    for (int i = 0; i < n; i++) {
      if (ready[i].data.fd == main_fd) {
        ran += rx_main_drain();
        drains++;
      } else if (ready[i].data.fd == own_timer) {
        uint64_t expirations;
        if (read(own_timer, &expirations, sizeof expirations) > 0) {
          own_ticks++;
          printf("  own timerfd tick %d\n", own_ticks);
        }
      }
    }
  }
  printf("done: %d interval values, delayed %s, posted %s; %zu main actions in %d drains, "
         "%d own timer ticks\n",
         values_seen, delayed_ran ? "ran" : "missing", posted_ran ? "ran" : "missing", ran, drains,
         own_ticks);

  void *posted_token;
  pthread_join(thread, &posted_token);
  rx_release(posted_token);
  rx_release(later);
  rx_dispose(sub);
  rx_release(on_main);
  rx_release(ticks);
  rx_release(background);
  close(own_timer);
  close(ep);
  for (int i = 0; i < 1000 && rx_debug_live_objects() != live_at_start; i++) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  int64_t leaked = rx_debug_live_objects() - live_at_start;
  printf("live objects left: %lld\n", (long long)leaked);
  return values_seen >= 6 && delayed_ran && posted_ran && leaked == 0 ? 0 : 1;
}
