/* Memory that drained queues freed, handed back to the system. The allocator keeps freed
 * chunks of its heap mapped (it gives back only the top of the heap), so a queue that held
 * a backlog of millions of events and freed its chunks while draining still left the
 * process that much larger. Queues count the bytes they free (once per chunk, not per
 * event); the drain that empties a queue asks for a trim once a few megabytes were freed. */
#include <malloc.h>
#include "rxc_core.h"

long rxc_queue_freed_bytes_value;

void rxc_queue_return_memory(void) {
  if (__atomic_exchange_n(&rxc_queue_freed_bytes_value, 0, __ATOMIC_RELAXED) >= RXC_QUEUE_TRIM_BYTES)
    malloc_trim(0);
}
