/* This thread's spare SinkDisposer (see SinkDisposer.recycle): a subscribe + dispose then
 * skips a malloc, a free and the object's set-up and tear-down. initial-exec TLS, as the C
 * layer's spare handles; the pthread key only releases the spare when the thread exits. */
#include <pthread.h>
#include "rxc_core.h"

__thread rxc_spare_disposer_slot rxc_spare_disposer_tls __attribute__((tls_model("initial-exec")));

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static void (*release_spare)(void *);

static void thread_exit(void *p) {
  rxc_spare_disposer_slot *s = p;
  s->hooked = 0; /* a later put (another TLS destructor) hooks again: glibc reruns destructors */
  if (s->disposer) {
    void *d = s->disposer;
    s->disposer = 0;
    release_spare(d);
  }
}

static void make_exit_key(void) { pthread_key_create(&exit_key, thread_exit); }

int rxc_spare_disposer_hook(void (*release)(void *)) {
  pthread_once(&exit_key_once, make_exit_key);
  release_spare = release;
  if (pthread_setspecific(exit_key, &rxc_spare_disposer_tls) != 0) return 0;
  rxc_spare_disposer_tls.hooked = 1;
  return 1;
}
