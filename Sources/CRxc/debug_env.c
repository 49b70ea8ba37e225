/* RXC_DEBUG, read once, at the first question (a test may set it after the library loaded,
 * before its first release). A plain int, not a Swift lazy global: that costs a swift_once
 * call on every C reference dropped. Racing first readers compute the same answer. */
#include <stdlib.h>
#include "rxc_swift.h"

int rxc_debug_state_ = -1;

int rxc_debug_poison_init(void) {
  const char *v = getenv("RXC_DEBUG");
  int on = v != NULL && v[0] != 0 && !(v[0] == '0' && v[1] == 0); /* set and not "0" */
  __atomic_store_n(&rxc_debug_state_, on, __ATOMIC_RELAXED);
  return on;
}
