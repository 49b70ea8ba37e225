// A C++ translation unit that includes rxc.hpp and uses nothing of it.
#include "rxc.hpp"
int main() { return rx::live_objects() < 0; }
