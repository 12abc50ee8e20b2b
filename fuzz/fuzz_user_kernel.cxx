// A learner's kernel file and the compiler's log about it (model/user_kernel.hpp): any bytes are
// a source that is refused with a reason or accepted, and any log reads back into messages whose
// lines and columns are counted from 1.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "model/user_kernel.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ts::model;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (const auto why = user_kernel_problem(text); why && why->empty()) std::abort();
    // The same bytes as a log about a file named by its first line.
    const std::size_t newline = text.find('\n');
    const std::string_view file = newline == std::string_view::npos ? std::string_view("k.cu") : text.substr(0, newline);
    for (const Diagnostic& d : parse_compiler_log(text, file))
        if (d.line < 1 || d.column < 0 || d.message.size() > text.size() + 32) std::abort();
    return 0;
}
