#pragma once
// How many samples the heaviest randomised and exhaustive tests draw. The Release build runs
// them whole. The sanitizer builds run every test too, but five to ten times slower: there the
// heaviest ones draw a quarter of their samples (or, exhaustive, stop at smaller variants),
// which reaches the same code paths for the sanitizers to watch while keeping the CI run short.

#include <algorithm>

namespace rastros::testing_scale {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

/// `n` samples in the Release build; a quarter of them (at least one) under a sanitizer.
constexpr int samples(int n) { return kSanitized ? std::max(1, n / 4) : n; }

}  // namespace rastros::testing_scale
