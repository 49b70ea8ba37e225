/* The per-thread message behind rx_last_error(). C's _Thread_local is the cheapest TLS
 * available and needs no destructor: the buffer lives in the thread's static TLS block. */
#include <string.h>
#include "rxc_swift.h"

static _Thread_local char rxc_last_error_buf[512];

void rxc_set_last_error(const char *message) {
  if (message == NULL) message = "";
  strncpy(rxc_last_error_buf, message, sizeof rxc_last_error_buf - 1);
  rxc_last_error_buf[sizeof rxc_last_error_buf - 1] = '\0';
}

const char *rxc_get_last_error(void) { return rxc_last_error_buf; }
