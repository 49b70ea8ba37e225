/* This thread's spare observable handles, pipeline, subscription token and observable box (see ObservableHandle.retire): a static-TLS block
 * reached with one %fs-relative access, where pthread_getspecific was a call per use. The
 * pthread key only serves to release the spares when the thread exits; it is set once per
 * thread, by the first put. */
#include <pthread.h>
#include "rxc_swift.h"

__thread rxc_spare_handles rxc_spare_tls __attribute__((tls_model("initial-exec")));

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static void (*release_spare)(void *);

static void thread_exit(void *p) {
  rxc_spare_handles *s = p;
  s->hooked = 0;  /* a later put (another TLS destructor) hooks again: glibc reruns destructors */
  while (s->count > 0) release_spare(s->slot[--s->count]);
  if (s->pipeline) {
    void *p = s->pipeline;
    s->pipeline = 0;
    release_spare(p);
  }
  if (s->token) {
    void *p = s->token;
    s->token = 0;
    release_spare(p);
  }
  if (s->observable_box) {
    void *p = s->observable_box;
    s->observable_box = 0;
    release_spare(p);
  }
}

static void make_exit_key(void) { pthread_key_create(&exit_key, thread_exit); }

bool rxc_spare_hook(void (*release)(void *)) {
  pthread_once(&exit_key_once, make_exit_key);
  release_spare = release;
  if (pthread_setspecific(exit_key, &rxc_spare_tls) != 0) return false;
  rxc_spare_tls.hooked = 1;
  return true;
}
