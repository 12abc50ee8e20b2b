#include "sweep.hpp"

#include <ostream>

#include <algorithm>
#include <span>
#include <cmath>
#include <optional>

#include "gpu/energy.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "model/ladder.hpp"
#include "model/rung_info.hpp"
#include "model/tuning_table.hpp"

namespace ts::cli {

namespace {

using model::format_text;

// Far more than any sweep needs; stops "1:1000000000:+1" before it fills memory.
constexpr std::size_t kMaxValues = 4096;
constexpr std::size_t kMaxPoints = 100000;

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    for (;;) {
        const auto at = text.find(separator);
        parts.push_back(trim(text.substr(0, at)));
        if (at == std::string_view::npos) return parts;
        text.remove_prefix(at + 1);
    }
}

// The comma-separated entries of `text`, or why there are none or one is empty.
std::variant<std::vector<std::string_view>, std::string> entries(std::string_view flag, std::string_view text) {
    if (trim(text).empty()) return format_text("{} is empty: give at least one value", flag);
    std::vector<std::string_view> items = split(text, ',');
    if (std::find(items.begin(), items.end(), std::string_view{}) != items.end())
        return format_text("{} \"{}\" has an empty entry (two commas, or one at an end)", flag, text);
    return items;
}

std::optional<std::string> at_least_one(std::string_view flag, std::int64_t value) {
    if (value < 1) return format_text("{} must be at least 1, got {}", flag, value);
    return std::nullopt;
}

// FIRST:LAST:xFACTOR or FIRST:LAST:+STEP, appended to `values`.
std::optional<std::string> expand_range(std::string_view flag, std::string_view item,
                                        std::vector<std::int64_t>& values) {
    const std::vector<std::string_view> parts = split(item, ':');
    const std::string syntax = format_text("{} \"{}\": a range is FIRST:LAST:xFACTOR (256:4096:x2) or FIRST:LAST:+STEP "
                                      "(100:400:+100)",
                                      flag, item);
    if (parts.size() != 3 || parts[0].empty() || parts[1].empty() || parts[2].size() < 2 ||
        (parts[2][0] != 'x' && parts[2][0] != '+'))
        return syntax;
    std::int64_t bounds[2] = {};
    for (int i = 0; i < 2; ++i) {
        auto parsed = parse_count(flag, parts[static_cast<std::size_t>(i)]);
        if (auto* why = std::get_if<std::string>(&parsed)) return *why;
        bounds[i] = std::get<std::int64_t>(parsed);
        if (auto why = at_least_one(flag, bounds[i])) return why;
    }
    const auto [first, last] = bounds;
    if (first > last) return format_text("{} \"{}\": the range starts above its end", flag, item);
    const bool geometric = parts[2][0] == 'x';
    auto parsed_step = parse_count(format_text("{} (step)", flag), parts[2].substr(1));
    if (auto* why = std::get_if<std::string>(&parsed_step)) return *why;
    const std::int64_t step = std::get<std::int64_t>(parsed_step);
    if (geometric && step < 2) return format_text("{} \"{}\": the factor must be at least 2", flag, item);
    if (!geometric && step < 1) return format_text("{} \"{}\": the step must be at least 1", flag, item);
    for (std::int64_t value = first; value <= last;) {
        values.push_back(value);
        if (values.size() > kMaxValues) return format_text("{} \"{}\" gives more than {} values", flag, item, kMaxValues);
        // Stop before the next value could overflow.
        if (geometric ? value > last / step : value > last - step) break;
        value = geometric ? value * step : value + step;
    }
    return std::nullopt;
}

template <typename T>
void keep_first_of_each(std::vector<T>& values) {
    std::vector<T> unique;
    for (const T& value : values)
        if (std::find(unique.begin(), unique.end(), value) == unique.end()) unique.push_back(value);
    values = std::move(unique);
}

template <typename T>
bool failed(const std::variant<T, std::string>& parsed, std::string& why) {
    if (const auto* message = std::get_if<std::string>(&parsed)) {
        why = *message;
        return true;
    }
    return false;
}

std::vector<std::int64_t> doubling(std::int64_t first, std::int64_t last) {
    std::vector<std::int64_t> sizes;
    for (std::int64_t size = first; size <= last; size *= 2) sizes.push_back(size);
    return sizes;
}

model::KernelConfig config_of(model::KernelKind kind, int x = 16, int y = 16, int tile = 16) {
    model::KernelConfig config;
    config.kind = kind;
    config.block_x = x;
    config.block_y = y;
    config.tile = tile;
    return config;
}

}  // namespace

std::variant<std::vector<std::int64_t>, std::string> parse_number_list(std::string_view flag, std::string_view text) {
    auto items = entries(flag, text);
    if (auto* why = std::get_if<std::string>(&items)) return *why;
    std::vector<std::int64_t> values;
    for (std::string_view item : std::get<0>(items)) {
        if (item.find(':') != std::string_view::npos) {
            if (auto why = expand_range(flag, item, values)) return *why;
            continue;
        }
        auto parsed = parse_count(flag, item);
        if (auto* why = std::get_if<std::string>(&parsed)) return *why;
        if (auto why = at_least_one(flag, std::get<std::int64_t>(parsed))) return *why;
        values.push_back(std::get<std::int64_t>(parsed));
    }
    keep_first_of_each(values);
    return values;
}

std::variant<std::vector<std::pair<int, int>>, std::string> parse_block_list(std::string_view flag,
                                                                             std::string_view text) {
    auto items = entries(flag, text);
    if (auto* why = std::get_if<std::string>(&items)) return *why;
    std::vector<std::pair<int, int>> blocks;
    for (std::string_view item : std::get<0>(items)) {
        const auto x = item.find_first_of("xX×");
        if (x == std::string_view::npos) return format_text("{} expects XxY such as 32x8, got \"{}\"", flag, item);
        const std::size_t after = item.compare(x, 2, "×") == 0 ? x + 2 : x + 1;
        int sides[2] = {};
        const std::string_view texts[2] = {item.substr(0, x), item.substr(after)};
        for (int i = 0; i < 2; ++i) {
            auto parsed = parse_count(format_text("{} ({})", flag, i == 0 ? "x" : "y"), texts[i]);
            if (auto* why = std::get_if<std::string>(&parsed)) return *why;
            const std::int64_t side = std::get<std::int64_t>(parsed);
            if (side < 1) return format_text("{} sides must be at least 1, got {}", flag, item);
            // Kept sane before narrowing; the GPU refuses anything over 1024 anyway.
            sides[i] = static_cast<int>(std::min<std::int64_t>(side, 1 << 20));
        }
        blocks.emplace_back(sides[0], sides[1]);
    }
    keep_first_of_each(blocks);
    return blocks;
}

bool SweepLists::any_given() const {
    for (const std::optional<std::string>* text :
         {&kernel, &size, &m, &n, &k, &tile, &block, &threads, &dtype, &batch, &scaling})
        if (text->has_value()) return true;
    return false;
}

std::variant<std::vector<Setup>, std::string> expand_sweep(const SweepLists& lists) {
    const auto or_default = [](const std::optional<std::string>& text, const char* fallback) {
        return text.value_or(fallback);
    };
    std::string why;

    std::vector<model::KernelKind> kinds;
    const bool ladder = lists.kernel == "ladder";
    const bool tc_ladder = lists.kernel == "tc-ladder";
    if (lists.kernel == "all") {
        for (const model::RungInfo& row : model::rung_table()) kinds.push_back(row.kind);
    } else if (ladder) {
        // The ladder: the tiled kernel it starts from (T = 32 unless --tile says), every rung,
        // and cuBLAS at the top.
        for (const model::RungInfo& row : model::rungs_on(model::Ladder::Fp32)) kinds.push_back(row.kind);
        kinds.push_back(model::KernelKind::Cublas);
    } else if (tc_ladder) {
        // The tensor-core ladder: every tensor-core rung and cuBLAS in the 16-bit type (BF16 unless
        // --dtype says), and cuBLAS in FP32 beside them (added with the points, below).
        for (const model::RungInfo& row : model::rungs_on(model::Ladder::TensorCores)) kinds.push_back(row.kind);
        kinds.push_back(model::KernelKind::Cublas);
    } else {
        const std::string text = or_default(lists.kernel, "tiled");
        auto names = entries("--kernel", text);
        if (failed(names, why)) return why;
        for (std::string_view name : std::get<0>(names)) {
            const auto kind = model::parse_kernel(name);
            if (!kind)
                return format_text("--kernel must be one of {} (or all, ladder, tc-ladder), got \"{}\"", kernel_names(),
                                   name);
            kinds.push_back(*kind);
        }
        keep_first_of_each(kinds);
    }

    std::vector<model::Dtype> dtypes;
    // entries() returns views into the text: it must outlive them.
    const std::string dtype_text = or_default(lists.dtype, tc_ladder ? "bf16" : "float");
    auto dtype_names = entries("--dtype", dtype_text);
    if (failed(dtype_names, why)) return why;
    for (std::string_view name : std::get<0>(dtype_names)) {
        const auto dtype = model::parse_dtype(name);
        if (!dtype) return format_text("--dtype must be int32, float, double, bf16, fp16 or fp8, got \"{}\"", name);
        dtypes.push_back(*dtype);
    }
    keep_first_of_each(dtypes);

    // FP8's scales: tensor unless --scaling says, or the FP8 rungs' own where they are named (the
    // fp8 rung's tensor, fp8-blocks' block); only with fp8.
    const bool any_fp8 = std::any_of(dtypes.begin(), dtypes.end(), model::is_fp8);
    if (lists.scaling && !any_fp8)
        return "--scaling chooses the scales of fp8 inputs (tensor or block); add --dtype fp8 or drop --scaling";
    std::vector<model::Fp8Scaling> scalings;
    std::string rung_scalings;
    for (model::KernelKind kind : kinds)
        if (const auto own = model::fp8_rung_scaling(kind))
            rung_scalings += (rung_scalings.empty() ? "" : ",") + std::string(model::fp8_scaling_name(*own));
    const std::string scaling_text = or_default(lists.scaling, rung_scalings.empty() ? "tensor" : rung_scalings.c_str());
    auto scaling_names = entries("--scaling", scaling_text);
    if (failed(scaling_names, why)) return why;
    for (std::string_view name : std::get<0>(scaling_names)) {
        const auto scaling = model::parse_fp8_scaling(name);
        if (!scaling) return format_text("--scaling must be tensor or block, got \"{}\"", name);
        scalings.push_back(*scaling);
    }
    keep_first_of_each(scalings);

    auto tiles = parse_number_list("--tile", or_default(lists.tile, ladder ? "32" : "16"));
    auto blocks = parse_block_list("--block", or_default(lists.block, "16x16"));
    auto threads = parse_number_list("--threads", or_default(lists.threads, "128"));
    auto batches = parse_number_list("--batch", or_default(lists.batch, "1"));
    if (failed(tiles, why) || failed(blocks, why) || failed(threads, why) || failed(batches, why)) return why;

    // Sizes: every combination of the given dimensions; the others follow --size.
    auto squares = parse_number_list("--size", or_default(lists.size, "1024"));
    if (failed(squares, why)) return why;
    std::optional<std::vector<std::int64_t>> dims[3];
    const std::optional<std::string>* dim_texts[3] = {&lists.m, &lists.n, &lists.k};
    const char* dim_flags[3] = {"--m", "--n", "--k"};
    for (int i = 0; i < 3; ++i) {
        if (!dim_texts[i]->has_value()) continue;
        auto parsed = parse_number_list(dim_flags[i], **dim_texts[i]);
        if (failed(parsed, why)) return why;
        dims[i] = std::get<0>(parsed);
    }
    // Each size once, in first-seen order, and never more than a sweep may hold: three long
    // lists combine into billions (found by fuzzing, where building them all took minutes).
    // The lists are free of repeats, so the combinations of one square differ from each other,
    // and those of two squares differ in a dimension the square fills; where --m, --n and --k
    // are all given no dimension is left to --size, and one pass covers every combination
    // (walking them again for each square took minutes too, all repeats: found by fuzzing).
    const bool square_unused = dims[0] && dims[1] && dims[2];
    const std::vector<std::int64_t>& square_list = std::get<0>(squares);
    const std::size_t square_count = square_unused ? std::min<std::size_t>(square_list.size(), 1) : square_list.size();
    std::vector<std::array<std::int64_t, 3>> sizes;
    for (std::size_t s = 0; s < square_count; ++s) {
        const std::vector<std::int64_t> own{square_list[s]};
        for (std::int64_t m : dims[0].value_or(own))
            for (std::int64_t n : dims[1].value_or(own))
                for (std::int64_t k : dims[2].value_or(own)) {
                    sizes.push_back({m, n, k});
                    if (sizes.size() > kMaxPoints)
                        return format_text("these lists describe more than {} points; measure fewer at a time",
                                           kMaxPoints);
                }
    }

    std::vector<model::KernelConfig> configs;
    for (model::KernelKind kind : kinds) {
        if (kind == model::KernelKind::Tiled) {
            for (std::int64_t tile : std::get<0>(tiles)) {
                const auto config = config_of(kind, 16, 16, static_cast<int>(std::min<std::int64_t>(tile, 1 << 20)));
                if (auto reason = model::check_config(config)) return format_text("--tile {}: {}", tile, *reason);
                configs.push_back(config);
            }
        } else if (model::uses_1d_blocks(kind)) {
            for (std::int64_t count : std::get<0>(threads))
                configs.push_back(config_of(kind, static_cast<int>(std::min<std::int64_t>(count, 1 << 20)), 1));
        } else if (kind == model::KernelKind::Cublas || model::is_ladder(kind) || model::is_tensor_core(kind)) {
            configs.push_back(config_of(kind));  // a rung's shape is its own (the tuned rung's: the tuner's)
        } else {
            for (const auto& [x, y] : std::get<0>(blocks)) configs.push_back(config_of(kind, x, y));
        }
    }

    std::vector<Setup> points;
    if (tc_ladder && std::find(dtypes.begin(), dtypes.end(), model::Dtype::Float32) == dtypes.end())
        dtypes.push_back(model::Dtype::Float32);  // cuBLAS FP32, the CUDA cores' best, for the comparison
    const std::vector<model::Fp8Scaling> only_tensor{model::Fp8Scaling::Tensor};  // other types have no scales
    for (model::Dtype dtype : dtypes)
        for (model::Fp8Scaling scaling : model::is_fp8(dtype) ? scalings : only_tensor)
            for (const model::KernelConfig& config : configs)
                for (std::int64_t batch : std::get<0>(batches))
                    for (const auto& [m, n, k] : sizes) {
                        // "all", "ladder" and "tc-ladder" leave out what has no kernel for a type; named
                        // alone, the runner says why it cannot run, except for fp8, which few kernels
                        // take: that is said here, before any GPU is asked.
                        const auto unsupported = model::dtype_unsupported(config.kind, dtype);
                        if ((ladder || tc_ladder || lists.kernel == "all") && unsupported) continue;
                        if (model::is_fp8(dtype) && unsupported) return format_text("--dtype fp8: {}", *unsupported);
                        // An FP8 rung runs the scales it is written for: among several kernels or
                        // scalings the others are left out, named alone with another it is an error.
                        if (model::is_fp8(dtype))
                            if (const auto other = model::fp8_scaling_unsupported(config.kind, scaling)) {
                                if (kinds.size() > 1 || scalings.size() > 1) continue;
                                return format_text("--scaling {}: {}", model::fp8_scaling_name(scaling), *other);
                            }
                        Setup setup;
                        setup.kernel = config;
                        setup.problem = {m, n, k, batch, dtype, scaling};
                        if (auto reason = model::validate(setup.problem))
                            return format_text("{}×{}×{} (batch {}, {}): {}", m, n, k, batch, model::dtype_name(dtype),
                                               *reason);
                        points.push_back(setup);
                        if (points.size() > kMaxPoints)
                            return format_text("these lists describe more than {} points; measure fewer at a time",
                                               kMaxPoints);
                    }
    return points;
}

std::vector<Setup> default_sweep() {
    using model::Dtype;
    using model::KernelKind;
    std::vector<Setup> points;
    auto add = [&](const model::KernelConfig& config, Dtype dtype, const std::vector<std::int64_t>& sizes,
                   model::Fp8Scaling scaling = model::Fp8Scaling::Tensor) {
        for (std::int64_t size : sizes) {
            Setup setup;
            setup.kernel = config;
            setup.problem = {size, size, size, 1, dtype, scaling};
            // The tuning sweeps repeat a few points of the main one: measure those once.
            const bool seen = std::any_of(points.begin(), points.end(), [&](const Setup& other) {
                return model::describe(other.kernel) == model::describe(config) && other.problem.m == size &&
                       other.problem.dtype == dtype && other.problem.fp8_scaling == scaling;
            });
            if (!seen) points.push_back(setup);
        }
    };
    const std::vector<model::KernelConfig> main_kernels = {
        config_of(KernelKind::Naive, 32, 32),         config_of(KernelKind::Naive, 16, 16),
        config_of(KernelKind::NaiveRowFromX, 32, 32), config_of(KernelKind::Tiled, 16, 16, 8),
        config_of(KernelKind::Tiled, 16, 16, 16),     config_of(KernelKind::Tiled, 16, 16, 32),
        config_of(KernelKind::Cublas)};
    for (const auto& config : main_kernels) add(config, Dtype::Float32, doubling(128, 4096));
    // The kernel ladder past the tiled kernel, in float (the float rungs' only type).
    for (const model::RungInfo& row : model::rungs_on(model::Ladder::Fp32))
        if (model::is_ladder(row.kind)) add(config_of(row.kind), Dtype::Float32, doubling(128, 4096));
    // Every candidate shape of a tuned rung where its tuner chooses between them, so that a
    // measurement shows what it chose from ("tuned #0" …, the tuning view's candidate map).
    const auto add_candidates = [&](KernelKind rung, Dtype dtype, std::span<const int> sizes) {
        for (int variant = 0; variant < model::tuned_candidate_count(rung); ++variant) {
            model::KernelConfig candidate = config_of(rung);
            candidate.variant = variant;
            add(candidate, dtype, std::vector<std::int64_t>(sizes.begin(), sizes.end()));
        }
    };
    add_candidates(KernelKind::Tuned, Dtype::Float32, model::kCandidateSweepSizes);
    // The tensor-core ladder and cuBLAS in BF16 (their inputs; FP32 sums), to 8192, where each
    // still runs in milliseconds and the ladder's last rungs reach their speed; tc-tuned's
    // candidates too ("tc-tuned #0" …).
    for (const model::RungInfo& row : model::rungs_on(model::Ladder::TensorCores))
        if (row.dtypes.has(Dtype::BFloat16)) add(config_of(row.kind), Dtype::BFloat16, doubling(128, 8192));
    add_candidates(KernelKind::TcTuned, Dtype::BFloat16, model::kTcCandidateSweepSizes);
    add(config_of(KernelKind::Cublas), Dtype::BFloat16, doubling(128, 8192));
    // The FP8 rungs on top, each in its own scales, and cuBLASLt's FP8 line in both, from 512 (below
    // that FP8 saves nothing a 16-bit rung does not).
    for (const model::RungInfo& row : model::rungs_on(model::Ladder::TensorCores))
        if (const auto scaling = model::fp8_rung_scaling(row.kind))
            add(config_of(row.kind), Dtype::Fp8E4M3, doubling(512, 8192), *scaling);
    for (model::Fp8Scaling scaling : {model::Fp8Scaling::Tensor, model::Fp8Scaling::Block})
        add(config_of(KernelKind::Cublas), Dtype::Fp8E4M3, doubling(512, 8192), scaling);
    // One thread per row or column leaves most of the GPU idle: 4096 would take seconds.
    add(config_of(KernelKind::RowPerThread, 128, 1), Dtype::Float32, doubling(128, 2048));
    add(config_of(KernelKind::ColumnPerThread, 128, 1), Dtype::Float32, doubling(128, 2048));
    for (Dtype dtype : {Dtype::Float64, Dtype::Int32})
        for (const auto& config : main_kernels) {
            const bool skipped = config.kind == KernelKind::Naive && config.block_x == 16;
            // cuBLAS has no int32 GEMM; the model names why in its own line.
            if (skipped || (config.kind == KernelKind::Cublas && dtype == Dtype::Int32)) continue;
            add(config, dtype, doubling(256, 2048));
        }
    // Tuning at 2048: naive block shapes (those within 1024 threads) and tile widths.
    for (int x : {8, 16, 32, 64})
        for (int y : {1, 2, 4, 8, 16, 32})
            if (x * y <= 1024) add(config_of(KernelKind::Naive, x, y), Dtype::Float32, {2048});
    for (int tile : {1, 2, 4, 8, 16, 32}) add(config_of(KernelKind::Tiled, 16, 16, tile), Dtype::Float32, {2048});
    return points;
}

double estimate_seconds(const gpu::RunRequest& request) {
    using model::KernelKind;
    const model::Problem& p = request.problem;
    const model::KernelConfig& config = request.kernel;
    const double work = static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k) *
                        static_cast<double>(p.batch);
    // GFLOP/s seen on an H200 at 2048 to 4096 (float); everything else is scaled from these.
    double rate = 6000.0;
    switch (config.kind) {
        case KernelKind::Naive: rate = 6000.0 * std::min(1.0, std::sqrt(config.block_x / 32.0)); break;
        case KernelKind::NaiveRowFromX: rate = 1000.0; break;
        case KernelKind::RowPerThread: rate = 0.04 * static_cast<double>(p.m * p.batch); break;
        case KernelKind::ColumnPerThread: rate = 0.04 * static_cast<double>(p.n * p.batch); break;
        case KernelKind::Tiled: {
            const double by_tile[] = {30, 250, 1000, 4000, 7000, 8900};  // T = 1, 2, 4, 8, 16, 32
            rate = by_tile[std::clamp(static_cast<int>(std::log2(std::max(config.tile, 1))), 0, 5)];
            break;
        }
        // Guesses until measured (SGEMM_CUDA's ladder on an H200: 1-D about 35 %, 2-D about
        // half of cuBLAS).
        case KernelKind::RegTile1d: rate = 15000.0; break;
        case KernelKind::RegTile2d: rate = 25000.0; break;
        case KernelKind::Vectorized:
        case KernelKind::ConflictFree: rate = 30000.0; break;
        case KernelKind::Warptile:
        case KernelKind::Pipelined:
        case KernelKind::Tuned: rate = 38000.0; break;
        // The tensor-core rungs as measured on an H100 at 4096³ in BF16, and cuBLAS BF16 there.
        case KernelKind::Wmma: rate = 150000.0; break;
        case KernelKind::Mma: rate = 160000.0; break;
        case KernelKind::MmaAsync: rate = 250000.0; break;
        case KernelKind::Wgmma: rate = 480000.0; break;
        case KernelKind::WarpSpecialized:
        case KernelKind::Persistent:
        case KernelKind::TcTuned: rate = 600000.0; break;
        case KernelKind::Cublas:
            rate = model::is_fp8(p.dtype) ? 1300000.0 : model::is_half_precision(p.dtype) ? 750000.0 : 50000.0;
            break;
    }
    if (p.dtype == model::Dtype::Float64 && config.kind != KernelKind::Cublas) rate *= 0.5;
    // A learner's kernel may be slower than any rung (naive-row ran at about 1000 GFLOP/s).
    if (request.user) rate = 300.0;
    // Small problems do not fill the GPU (132 SMs × 2048 threads).
    rate *= std::min(1.0, static_cast<double>(p.m * p.n * p.batch) / 270000.0);
    const double kernel_s = std::max(2.0 * work / (std::max(rate, 1e-3) * 1e9), 5e-6);

    const double flush_s = request.hot ? 0.0 : 30e-6;
    const double per_sample_s = kernel_s + flush_s + 4e-6;
    const double warmup_s = request.warmup_launches * per_sample_s;
    double sampling_s = request.timed_launches * per_sample_s;
    if (request.adaptive) {
        // Assume the noise never settles: sample until the time target, the sample limit
        // or the budget. Quiet kernels finish sooner.
        const double wanted = std::clamp(request.min_time_s / kernel_s, static_cast<double>(request.timed_launches),
                                         static_cast<double>(request.max_samples));
        sampling_s = std::max(sampling_s, std::min(wanted * per_sample_s, request.budget_s - warmup_s));
    }
    const double bytes = static_cast<double>(p.total_bytes());
    const double inputs_s = 0.002 + static_cast<double>(p.a_elements() + p.b_elements()) * p.batch * 8e-9 + bytes / 5e9;
    const double check_s = request.check ? work / 4e9 : 0.0;
    const double end_to_end_s = request.end_to_end_runs * (kernel_s + bytes / 5e9 + 0.002);
    // Back-to-back launches until NVML's energy counter moved 100 steps (gpu/energy.hpp): on an H100
    // a step is a refresh of about 0.115 s, whatever the kernel draws.
    const double energy_s = request.energy ? std::min(100 * 0.115, request.energy_max_s) : 0.0;
    return warmup_s + request.settle_s + sampling_s + inputs_s + check_s + end_to_end_s + energy_s;
}

std::string duration_text(double seconds) {
    const long total = std::lround(std::max(seconds, 0.0));
    if (total < 60) return format_text("{} s", total);
    if (total < 3600) return format_text("{} min {} s", total / 60, total % 60);
    const long minutes = total / 60 % 60;
    return format_text("{} h {}{} min", total / 3600, minutes < 10 ? "0" : "", minutes);
}

std::optional<gpu::DeviceInfo> usable_device(gpu::Runner& runner, std::string_view command, std::ostream& err,
                                             ProbeNote note) {
    if (note == ProbeNote::Say) err << "probing the GPU…\n";
    gpu::DeviceInfo device = runner.wait_for_device();
    if (device.usable) return device;
    err << "tilescope " << command << ": no usable GPU: " << device.why_not << '\n';
    return std::nullopt;
}

gpu::RunRequest setup_request(const Setup& setup, gpu::RequestKind kind) {
    gpu::RunRequest request;
    request.kind = kind;
    request.kernel = setup.kernel;
    request.problem = setup.problem;
    return request;
}

}  // namespace ts::cli
