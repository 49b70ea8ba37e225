// rxc.h and the standard headers rxc.hpp includes: what a C++ TU that uses strings,
// vectors and smart pointers already pays without rxc.hpp.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "rxc.h"
int main() { return rx_debug_live_objects() < 0; }
