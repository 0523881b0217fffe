#include "interrupt.hpp"

#include <chrono>
#include <csignal>

namespace rastros::tools {
namespace {

std::atomic<bool> requested{false};
std::atomic<int> received{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "signal handlers may only touch lock-free atomics");

extern "C" void on_stop_signal(int signal) {
  received.store(signal);
  requested.store(true);
}

void install() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // One-shot: the second Ctrl-C finds the default action and ends the process at once.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

const std::atomic<bool>& stop_requested() {
  static const bool installed = (install(), true);
  (void)installed;
  return requested;
}

int stop_signal() {
  return received.load();
}

int stopped_exit_status() {
  return 128 + stop_signal();
}

StopWatcher::StopWatcher(std::function<void()> stop)
    : thread_([this, stop = std::move(stop)] {
        const auto& requested = stop_requested();
        while (!done_.load()) {
          if (requested.load()) {
            stop();
            return;
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
      }) {}

StopWatcher::~StopWatcher() {
  done_.store(true);
  thread_.join();
}

}  // namespace rastros::tools
