/* This thread's count of possible stops (see rxc_core.h). */
#include "rxc_core.h"

__attribute__((tls_model("initial-exec"))) _Thread_local uintptr_t rxc_stop_epoch_ = 0;
