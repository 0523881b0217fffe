#pragma once
// --memory is the most memory a command may use. Where several searches run at once, each with
// a table of its own (the squares of a map with a time budget or df-pn, the searches of the web
// server, the ranks of a batch on one machine), each table gets an equal share of it.

#include <cstddef>
#include <string>

namespace rastros {

/// The table of each of `searches` searches at once within `memory` bytes. Throws InputError
/// when a share is below kMinimumTableBytes; the message says that `searches` counts
/// `what` ("squares at once") and what to lower (`instead`, such as "--threads").
std::size_t table_share(std::size_t memory, int searches, const std::string& what,
                        const std::string& instead);

}  // namespace rastros
