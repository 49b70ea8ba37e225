// Compile-time baseline: a C++ translation unit that includes only rxc.h.
#include "rxc.h"
int main() { return rx_debug_live_objects() < 0; }
