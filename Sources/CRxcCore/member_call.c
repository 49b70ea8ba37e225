/* Which owned-member call this thread is inside (see rxc_core.h). Initial-exec TLS: one
 * load or store relative to the thread pointer, no __tls_get_addr call. */
#include "rxc_core.h"

__attribute__((tls_model("initial-exec"))) _Thread_local uintptr_t rxc_member_call_ = 0;
