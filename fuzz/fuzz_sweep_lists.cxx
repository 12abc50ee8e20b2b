// The list and range syntax of bench's flags (--size 256:4096:x2,100, --block 32x8, ...):
// the input's lines are the flags' values, in SweepLists' order.
#include <cstdint>
#include <string>
#include <string_view>

#include "cli/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    [[maybe_unused]] auto numbers = ts::cli::parse_number_list("--size", text);
    [[maybe_unused]] auto blocks = ts::cli::parse_block_list("--block", text);
    ts::cli::SweepLists lists;
    std::optional<std::string>* fields[] = {&lists.kernel, &lists.size, &lists.m,       &lists.n,     &lists.k,
                                            &lists.tile,   &lists.block, &lists.threads, &lists.dtype, &lists.batch};
    std::size_t start = 0;
    for (auto* field : fields) {
        if (start > text.size()) break;
        const std::size_t end = std::min(text.find('\n', start), text.size());
        *field = std::string(text.substr(start, end - start));
        start = end + 1;
    }
    [[maybe_unused]] auto points = ts::cli::expand_sweep(lists);
    return 0;
}
