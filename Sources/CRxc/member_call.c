#include "rxc_swift.h"

const void *rxc_token_class_ = 0;
