/*
 * include/rxc.h on its own (make check-abi): as C99 with -pedantic, and as C++11, with
 * gcc and clang, all warnings errors. It must need no other include, survive a second
 * inclusion, and its convenience macros must compile.
 */
#include "rxc.h"
#include "rxc.h"

rx_value rxc_header_alone_check(void);

rx_value rxc_header_alone_check(void) {
  rx_value values[4] = {RX_INT(1), RX_DOUBLE(2.5), RX_BOOL(true), RX_PTR(0)};
  rx_status status = RX_OK;
  rx_kind kind = RX_NONE;
  (void)status;
  (void)kind;
  return values[(size_t)RX_VERSION_MAJOR];
}
