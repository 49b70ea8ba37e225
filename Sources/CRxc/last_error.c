/* The per-thread message behind rx_last_error(). The buffer is allocated on a thread's first
 * failed call and freed when the thread exits (a pthread key's destructor); only its pointer
 * lives in TLS. A 512-byte buffer in TLS itself would put it in the static TLS block that
 * glibc must find room for when a program dlopen()s librxc.so (ctypes, JNI, plug-ins), where
 * that room is small and shared. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "rxc_swift.h"

enum { RXC_LAST_ERROR_SIZE = 512 };

static __thread char *rxc_last_error_buf __attribute__((tls_model("initial-exec")));
static pthread_key_t rxc_last_error_key;
static pthread_once_t rxc_last_error_once = PTHREAD_ONCE_INIT;
static int rxc_last_error_key_ok;

/* Runs at thread exit. Clears the pointer too: a later TLS destructor that fails an rx call
 * allocates anew (and pthread runs this again) instead of writing to freed memory. */
static void rxc_last_error_free(void *buf) {
  if (rxc_last_error_buf == buf) rxc_last_error_buf = NULL;
  free(buf);
}

static void rxc_last_error_make_key(void) {
  rxc_last_error_key_ok = pthread_key_create(&rxc_last_error_key, rxc_last_error_free) == 0;
}

void rxc_set_last_error(const char *message) {
  if (message == NULL) message = "";
  char *buf = rxc_last_error_buf;
  if (buf == NULL) {
    pthread_once(&rxc_last_error_once, rxc_last_error_make_key);
    if (!rxc_last_error_key_ok) return;
    buf = malloc(RXC_LAST_ERROR_SIZE);
    if (buf == NULL) return; /* out of memory: the message is lost, the call's status is not */
    if (pthread_setspecific(rxc_last_error_key, buf) != 0) {
      free(buf);
      return;
    }
    rxc_last_error_buf = buf;
  }
  strncpy(buf, message, RXC_LAST_ERROR_SIZE - 1);
  buf[RXC_LAST_ERROR_SIZE - 1] = '\0';
}

const char *rxc_get_last_error(void) {
  const char *buf = rxc_last_error_buf;
  return buf != NULL ? buf : "";
}
