// gallery.cpp — seed 004's shape in C++: "thumbnails" made on a concurrent scheduler,
// delivered to the main thread through a Driver (rx_as_driver / rx_drive), while the main
// loop stays free. subscribe_on and observe_on move the work; each line names its thread.
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

#include "rxc.hpp"

static std::thread::id main_id;
static const char *where() { return std::this_thread::get_id() == main_id ? "main      " : "background"; }

int main() {
  main_id = std::this_thread::get_id();
  const int64_t live_at_start = rx::live_objects();
  int shown = 0;
  {
    auto pool = rx::scheduler::concurrent("gallery.decode");
    auto photos = rx::range(1, 6);
    // Each photo is "decoded" on the pool (flat_map over subscribe_on'd inners); photo 5
    // fails, and the Driver turns that error into a placeholder, then completes.
    auto thumbnails = photos
                          .flat_map_max(3, [&pool](int64_t id) {
                            return rx::just(id).subscribe_on(pool).map([](int64_t n) -> std::string {
                              std::this_thread::sleep_for(std::chrono::milliseconds(5 * n));
                              if (n == 5) throw std::runtime_error("photo 5 is corrupt");
                              std::printf("[%s] decoded photo %lld\n", where(), (long long)n);
                              return "thumbnail-" + std::to_string(n);
                            });
                          })
                          .as_driver(std::string("placeholder"));
    auto ui = thumbnails.drive(
        [&](const std::string &t) {
          std::printf("[%s] show %s\n", where(), t.c_str());
          shown++;
        },
        [] {
          std::printf("[%s] all delivered; stopping the main loop\n", where());
          rx::main_loop::stop();
        });
    // The program's main loop: here rxc's own (a GUI toolkit would poll rx::main_loop::fd()).
    rx::main_loop::run_for(int64_t(10) * 1000 * 1000 * 1000);
  }
  for (int i = 0; i < 1000 && rx::live_objects() != live_at_start; i++)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const int64_t leaked = rx::live_objects() - live_at_start;
  std::printf("shown %d, live objects left: %lld\n", shown, (long long)leaked);
  return leaked == 0 && shown >= 1 ? 0 : 1;
}
