/* This thread's spare objects, one per kind (see rxc_core.h): a subscribe + dispose then
 * skips a malloc, a free and the object's set-up and tear-down. initial-exec TLS, as the C
 * layer's spare handles; the pthread key only releases the spares when the thread exits. */
#include <pthread.h>
#include "rxc_core.h"

__thread rxc_core_spare_slots rxc_core_spare_tls __attribute__((tls_model("initial-exec")));
const void *rxc_core_spare_class[RXC_SPARE_KINDS];

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
/* Per kind, set before the first spare of that kind is kept (the same function each time). */
static void (*release_spare[RXC_SPARE_KINDS])(void *);

static void thread_exit(void *p) {
  rxc_core_spare_slots *s = p;
  s->hooked = 0; /* a later put (another TLS destructor) hooks again: glibc reruns destructors */
  for (int k = 0; k < RXC_SPARE_KINDS; k++) {
    void *o = s->object[k];
    if (o) {
      s->object[k] = 0;
      release_spare[k](o);
    }
  }
}

static void make_exit_key(void) { pthread_key_create(&exit_key, thread_exit); }

int rxc_core_spare_hook(int kind, void (*release)(void *)) {
  pthread_once(&exit_key_once, make_exit_key);
  __atomic_store_n(&release_spare[kind], release, __ATOMIC_RELAXED);
  if (pthread_setspecific(exit_key, &rxc_core_spare_tls) != 0) return 0;
  rxc_core_spare_tls.hooked |= 1u << kind;
  return 1;
}
