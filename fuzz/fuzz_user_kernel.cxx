// A learner's kernel file and the compiler's log about it (model/user_kernel/source.hpp,
// model/user_kernel/launch.hpp): any bytes are a source that is refused with a reason or accepted; its
// launch lines read into expressions that either have a value or say why not, and write back into
// a source that reads the same; any log reads back into messages whose lines and columns are
// counted from 1; the tracing build (gpu/user_kernel_tracing.hpp) is made or refused with a
// reason, its shared arrays named by identifiers, or why they are not recorded.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "gpu/user_kernel_tracing.hpp"
#include "model/user_kernel/source.hpp"
#include "model/user_kernel/launch.hpp"
#include "model/user_kernel/user_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ts::model;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (const auto why = user_kernel_problem(text); why && why->empty()) std::abort();

    // The launch lines: read, resolved at a ragged size and at the largest, written back.
    std::string problem;
    const LaunchExpressions launch = launch_from_source(text, &problem);
    for (const Problem& p : {Problem{.m = 127, .n = 129, .k = 65}, Problem{.m = 1 << 30, .n = 1 << 30, .k = 1 << 30}}) {
        const auto shape = resolve_launch(launch, p);
        if (const auto* why = std::get_if<std::string>(&shape); why && why->empty()) std::abort();
    }
    if (launch_from_source(with_launch(text, launch)) != launch) std::abort();
    // The bytes as one expression.
    const auto value = evaluate_launch_expression(text.substr(0, 2 * kMostExpressionChars), 3, 5, 7);
    if (const auto* why = std::get_if<std::string>(&value); why && why->empty()) std::abort();

    // The tracing build: at most kMostSharedArrays arrays, each a name; or a reason.
    const auto trace = ts::gpu::tracing_source(std::string(text));
    if (const auto* why = std::get_if<1>(&trace); why && why->empty()) std::abort();
    if (const auto* build = std::get_if<0>(&trace)) {
        if (build->shared_names.size() > static_cast<std::size_t>(kMostSharedArrays)) std::abort();
        for (const std::string& name : build->shared_names)
            if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                                    std::string::npos)
                std::abort();
        if (!build->shared_names.empty() && !build->shared_not_recorded.empty()) std::abort();
    }

    // The same bytes as a log about a file named by its first line.
    const std::size_t newline = text.find('\n');
    const std::string_view file = newline == std::string_view::npos ? std::string_view("k.cu") : text.substr(0, newline);
    for (const Diagnostic& d : parse_compiler_log(text, file))
        if (d.line < 1 || d.column < 0 || d.message.size() > text.size() + 32) std::abort();
    return 0;
}
