/* Which thread is "main": the process's initial thread. Recorded when the library loads;
 * in a forked child the forking thread becomes the child's only (so initial) thread, which
 * a fork handler records. Compared by pthread_t, not gettid(): a recorded tid would be the
 * parent's in a child. */
#include <pthread.h>
#include "rxc_swift.h"

static pthread_t rxc_main;

static void rxc_record_main_in_child(void) { rxc_main = pthread_self(); }

__attribute__((constructor)) static void rxc_record_main(void) {
  rxc_main = pthread_self();
  pthread_atfork(NULL, NULL, rxc_record_main_in_child);
}

unsigned long rxc_main_thread(void) { return (unsigned long)rxc_main; }
