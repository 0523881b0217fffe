#pragma once
// What makes a batch checkpoint reusable (batch/batch_checkpoint.hpp): the same input file and
// the options that change the output.

#include <string>

#include "rastros/input.hpp"

namespace rastros {

/// The input file (path, size, modification time) and `options` (the options that shape the
/// output, as text) in one line. Throws InputError when the input cannot be read.
std::string batch_identity(const std::string& input, const std::string& options);

/// The input file (path, size, modification time), the default variant, value-only and timing,
/// in one line of text. Throws InputError when the input cannot be read.
std::string batch_identity(const std::string& input, const VariantText& defaults, bool value_only,
                           bool timing);

}  // namespace rastros
