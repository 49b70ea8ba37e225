/* Which owned-member call this thread is inside (see rxc_swift.h). Initial-exec TLS: one
 * load or store relative to the thread pointer, no __tls_get_addr call. */
#include "rxc_swift.h"

__attribute__((tls_model("initial-exec"))) _Thread_local uintptr_t rxc_member_call_ = 0;

const void *rxc_token_class_ = 0;
