#include "setup_options.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "model/rung_info.hpp"

namespace ts::cli {

using model::format_text;

std::variant<std::int64_t, std::string> parse_count(std::string_view flag, std::string_view text) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error == std::errc::result_out_of_range) return format_text("{} {} is far too large", flag, text);
    if (text.empty() || stop != end || error != std::errc{})
        return format_text("{} expects a whole number, got \"{}\"", flag, text);
    return value;
}

std::string kernel_names() {
    std::string names;
    for (const model::RungInfo& row : model::rung_table()) {
        if (!names.empty()) names += ", ";
        names += row.name;
    }
    return names;
}

std::variant<Setup, std::string> resolve_setup(const SetupOptions& options) {
    Setup setup;
    std::int64_t* sizes[] = {&setup.problem.m, &setup.problem.n, &setup.problem.k};
    const char* flags[] = {"--m", "--n", "--k"};
    const std::string* texts[] = {&options.m, &options.n, &options.k};
    for (int i = 0; i < 3; ++i) {
        auto parsed = parse_count(flags[i], *texts[i]);
        if (auto* why = std::get_if<std::string>(&parsed)) return *why;
        *sizes[i] = std::get<std::int64_t>(parsed);
    }

    const auto kind = model::parse_kernel(options.kernel);
    if (!kind) return format_text("--kernel must be one of {}, got \"{}\"", kernel_names(), options.kernel);
    setup.kernel.kind = *kind;

    auto tile = parse_count("--tile", options.tile);
    if (auto* why = std::get_if<std::string>(&tile)) return *why;
    // Keep the value sane before narrowing; check_config() explains anything above 32.
    const std::int64_t tile_value = std::get<std::int64_t>(tile);
    setup.kernel.tile = static_cast<int>(std::clamp<std::int64_t>(tile_value, -1, 1 << 20));

    const auto x = options.block.find_first_of("xX×");
    if (x == std::string::npos) return format_text("--block expects XxY such as 32x8, got \"{}\"", options.block);
    const std::size_t after = options.block.compare(x, 2, "×") == 0 ? x + 2 : x + 1;
    auto bx = parse_count("--block (x)", options.block.substr(0, x));
    auto by = parse_count("--block (y)", options.block.substr(after));
    if (auto* why = std::get_if<std::string>(&bx)) return *why;
    if (auto* why = std::get_if<std::string>(&by)) return *why;
    const std::int64_t block_x = std::get<std::int64_t>(bx);
    const std::int64_t block_y = std::get<std::int64_t>(by);
    // Checked here as well as in the model: the tiled kernel ignores --block, but a typo
    // in it should not pass silently.
    if (block_x < 1 || block_y < 1)
        return format_text("--block sides must be at least 1, got {}", options.block);
    setup.kernel.block_x = static_cast<int>(std::min<std::int64_t>(block_x, 1 << 20));
    setup.kernel.block_y = static_cast<int>(std::min<std::int64_t>(block_y, 1 << 20));

    const auto dtype = model::parse_dtype(options.dtype);
    if (!dtype) return format_text("--dtype must be int32, float, double, bf16, fp16 or fp8, got \"{}\"", options.dtype);
    setup.problem.dtype = *dtype;

    if (auto why = model::validate(setup.problem)) return *why;
    if (auto why = model::check_config(setup.kernel)) return *why;
    return setup;
}

}  // namespace ts::cli
