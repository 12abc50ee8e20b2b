#include "check.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <random>
#include <algorithm>
#include <sstream>
#include <iomanip>
#include <map>
#include <utility>

#include "gpu/cpu_reference.hpp"
#include "model/format.hpp"
#include "model/kernel_config.hpp"
#include "model/ladder.hpp"
#include "model/precision.hpp"
#include "model/rung_info.hpp"
#include "sweep.hpp"

namespace ts::cli {

using model::Dtype;
using model::format_text;
using model::KernelConfig;
using model::KernelKind;

CLI::App* add_check_command(CLI::App& app, CheckOptions& options) {
    CLI::App* check = app.add_subcommand(
        "check", "Run every kernel in int32, float and double, plain and batched, on random sizes, and check each "
                 "result against its reference");
    check->add_option("--seed", options.seed, "seed of the random sizes and inputs (default: a fresh one, printed)");
    check->add_flag("--quick", options.quick, "a smaller suite: fewer block shapes and tiles, no large sizes");
    check->add_option("--dtype", options.dtype, "int32 | float | double | bf16 | fp16 | fp8 | all")->capture_default_str();
    check->add_option("--scaling", options.scaling, "fp8's scales: tensor | block (default: both)");
    check->add_option("--kernel", options.kernel, "check one kernel only, e.g. cublas (default: every kernel)");
    return check;
}

std::variant<CheckPlan, std::string> resolve_check(const CheckOptions& options) {
    CheckPlan plan;
    plan.quick = options.quick;
    if (options.seed.empty()) {
        plan.seed = (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    } else {
        const char* end = options.seed.data() + options.seed.size();
        const auto [stop, error] = std::from_chars(options.seed.data(), end, plan.seed);
        if (error != std::errc{} || stop != end)
            return format_text("--seed expects a whole number from 0 to 2^64 − 1, got \"{}\"", options.seed);
    }
    if (options.dtype == "all") {
        plan.dtypes = {Dtype::Int32, Dtype::Float32, Dtype::Float64, Dtype::BFloat16, Dtype::Float16, Dtype::Fp8E4M3};
    } else if (const auto dtype = model::parse_dtype(options.dtype)) {
        plan.dtypes = {*dtype};
    } else {
        return format_text("--dtype must be int32, float, double, bf16, fp16, fp8 or all, got \"{}\"", options.dtype);
    }
    if (!options.kernel.empty()) {
        plan.kernel = model::parse_kernel(options.kernel);
        if (!plan.kernel)
            return format_text("--kernel must be one of {}, got \"{}\"", kernel_names(), options.kernel);
        // A kernel without a version for any asked type would leave nothing to check.
        if (std::all_of(plan.dtypes.begin(), plan.dtypes.end(),
                        [&](Dtype d) { return model::dtype_unsupported(*plan.kernel, d).has_value(); }))
            return format_text("--kernel {}: {}", options.kernel,
                               *model::dtype_unsupported(*plan.kernel, plan.dtypes.front()));
    }
    if (options.scaling.empty()) {
        plan.fp8_scalings = {model::Fp8Scaling::Tensor, model::Fp8Scaling::Block};
    } else if (const auto scaling = model::parse_fp8_scaling(options.scaling)) {
        if (std::none_of(plan.dtypes.begin(), plan.dtypes.end(), model::is_fp8))
            return "--scaling chooses the scales of fp8 inputs; add --dtype fp8 (or all) or drop --scaling";
        plan.fp8_scalings = {*scaling};
    } else {
        return format_text("--scaling must be tensor or block, got \"{}\"", options.scaling);
    }
    return plan;
}

namespace {

KernelConfig two_d(KernelKind kind, int block_x, int block_y) {
    KernelConfig config;
    config.kind = kind;
    config.block_x = block_x;
    config.block_y = block_y;
    return config;
}

KernelConfig one_d(KernelKind kind, int threads) { return two_d(kind, threads, 1); }

KernelConfig tiled(int tile) {
    KernelConfig config;
    config.kind = KernelKind::Tiled;
    config.tile = tile;
    return config;
}

// A kernel whose shape is fixed (a ladder rung, cuBLAS): only its kind is set.
KernelConfig of_kind(KernelKind kind) {
    KernelConfig config;
    config.kind = kind;
    return config;
}

KernelConfig cublas() { return of_kind(KernelKind::Cublas); }

// Every kernel, in teaching order. Naive blocks span kernel_tuner's usual sweep (x 8..64,
// y 1..32) and its corners: one thread wide, one row of 1024, odd sides that never fill a
// warp. The 1-D kernels get a single thread per block, a warp, an odd count and several
// warps. Every tile width the tiled kernel is built for.
std::vector<KernelConfig> suite_kernels(bool quick) {
    std::vector<KernelConfig> list;
    const std::vector<std::pair<int, int>> naive_blocks =
        quick ? std::vector<std::pair<int, int>>{{16, 16}, {32, 8}, {3, 5}, {1024, 1}}
              : std::vector<std::pair<int, int>>{{16, 16}, {32, 8}, {8, 32}, {64, 16}, {32, 32},
                                                 {8, 1},   {64, 1}, {1, 64}, {3, 5},   {1024, 1}};
    for (const auto& [x, y] : naive_blocks) list.push_back(two_d(KernelKind::Naive, x, y));
    const std::vector<std::pair<int, int>> row_blocks =
        quick ? std::vector<std::pair<int, int>>{{32, 8}} : std::vector<std::pair<int, int>>{{16, 16}, {32, 8}, {7, 9}};
    for (const auto& [x, y] : row_blocks) list.push_back(two_d(KernelKind::NaiveRowFromX, x, y));
    const std::vector<int> threads = quick ? std::vector<int>{32, 100} : std::vector<int>{1, 32, 100, 256};
    for (int t : threads) list.push_back(one_d(KernelKind::RowPerThread, t));
    for (int t : threads) list.push_back(one_d(KernelKind::ColumnPerThread, t));
    if (quick) {
        for (int tile : {1, 2, 3, 8, 16, 17, 31, 32}) list.push_back(tiled(tile));
    } else {
        for (int tile = 1; tile <= model::kMaxTile; ++tile) list.push_back(tiled(tile));
    }
    for (KernelKind kind : model::kAllKernelKinds)
        if (model::is_ladder(kind)) list.push_back(of_kind(kind));  // the tuned rung as the tuner picks
    for (KernelKind kind : model::kTensorCoreKinds) list.push_back(of_kind(kind));
    // Every shape the tuners may pick, each on its own.
    for (KernelKind rung : model::kAllKernelKinds)
        for (int variant = 0; variant < model::tuned_candidate_count(rung); ++variant) {
            KernelConfig candidate = of_kind(rung);
            candidate.variant = variant;
            list.push_back(candidate);
        }
    list.push_back(cublas());
    return list;
}

gpu::RunRequest make_request(const KernelConfig& kernel, Dtype dtype, std::int64_t m, std::int64_t n, std::int64_t k,
                             std::int64_t batch, std::uint64_t seed,
                             model::Fp8Scaling scaling = model::Fp8Scaling::Tensor) {
    gpu::RunRequest request;
    request.problem.fp8_scaling = scaling;
    request.kernel = kernel;
    request.problem.m = m;
    request.problem.n = n;
    request.problem.k = k;
    request.problem.batch = batch;
    request.problem.dtype = dtype;
    request.warmup_launches = 0;
    request.timed_launches = 1;
    request.seed = seed;
    request.check = true;
    return request;
}

std::string describe_case(const gpu::RunRequest& r) {
    const model::Problem& p = r.problem;
    std::string text = format_text("{}, {}, M={} N={} K={}", model::describe(r.kernel), model::dtype_name(p.dtype), p.m,
                              p.n, p.k);
    if (model::is_fp8(p.dtype)) text += format_text(", {} scales", model::fp8_scaling_name(p.fp8_scaling));
    if (p.batch > 1) text += format_text(" batch {}", p.batch);
    return text;
}

// One line per type: the largest |got − exact| / max(|exact|, 1) over its checked cases, and the
// rule each cell was held to (gpu::tolerance_rule).
std::string accuracy_table(const std::map<Dtype, std::pair<double, int>>& accuracy) {
    if (accuracy.empty()) return {};
    std::string text = "accuracy against the exact product (FP64 on the same inputs), largest relative error:\n";
    for (const auto& [dtype, seen] : accuracy) {
        const std::string rule = dtype == Dtype::Int32 ? "exact" : "each cell within " + gpu::tolerance_rule(dtype);
        std::ostringstream largest;
        largest << std::scientific << std::setprecision(2) << seen.first;
        text += format_text("  {}: {} over {} cases; {}\n", model::dtype_name(dtype), largest.str(), seen.second, rule);
    }
    // The error above tests the kernels; what the types cost comes first, in rounding the inputs.
    text += format_text("what each type keeps against the unrounded inputs (the model, C = A·B of {}×{}, K = {}): ",
                        model::kPrecisionM, model::kPrecisionN, model::kPrecisionK);
    for (model::Precision p : model::kPrecisions)
        text += format_text("{}{} {} digits", p == model::Precision::Fp32 ? "" : ", ", model::precision_name(p),
                            model::fixed(model::lesson_precision_error(p).digits(), 1));
    return text + "\n";
}

}  // namespace

std::vector<gpu::RunRequest> check_suite(const CheckPlan& plan) {
    std::mt19937_64 rng(plan.seed);
    auto uniform = [&rng](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    // One random case: its sizes and seed drawn in this order. Each draw sits in a braced
    // initializer, which C++ evaluates left to right, never in a call's argument list, whose
    // order is unspecified (GCC evaluates right to left, Clang left to right): --seed gives the
    // same suite whichever compiler built the program.
    struct Draw {
        std::int64_t m, n, k, batch;
        std::uint64_t seed;
    };
    std::vector<gpu::RunRequest> suite;
    auto add = [&suite](const KernelConfig& kernel, Dtype dtype, const Draw& d) {
        suite.push_back(make_request(kernel, dtype, d.m, d.n, d.k, d.batch, d.seed));
    };
    // FP8, for each scaling, on cuBLAS and the FP8 rung written for it: small sizes, and sizes past
    // 128 along K and N that 128 does not divide, so the last block of scales is partial. Block
    // scales are for one matrix per launch (model::validate), so a batch is tensor-scaled only.
    // Drawn after every other case, so that a --seed gives the other types the cases it gave them
    // before fp8 came.
    const auto add_fp8_cases = [&] {
        for (Dtype dtype : plan.dtypes) {
            if (!model::is_fp8(dtype)) continue;
            for (model::Fp8Scaling scaling : plan.fp8_scalings) {
                std::vector<KernelConfig> kernels{cublas()};
                for (KernelKind kind : model::kAllKernelKinds)
                    if (model::fp8_rung_scaling(kind) == scaling) kernels.push_back(of_kind(kind));
                const auto add_fp8 = [&](const Draw& d) {
                    if (scaling == model::Fp8Scaling::Block && d.batch > 1) return;
                    // Each kernel on inputs of its own (every case gets fresh ones).
                    for (std::size_t i = 0; i < kernels.size(); ++i)
                        suite.push_back(make_request(kernels[i], dtype, d.m, d.n, d.k, d.batch, d.seed + i, scaling));
                };
                // N and K multiples of 16, which cuBLASLt's FP8 GEMM takes (its leading dimensions), M
                // of 4 (its block scales' layout); past 128, mostly not multiples of it; then odd
                // sizes, which it may refuse (skipped, with the reason).
                add_fp8(Draw{4 * uniform(1, 40), 16 * uniform(1, 20), 16 * uniform(1, 25), 1, rng()});
                add_fp8(Draw{4 * uniform(33, 175), 16 * uniform(9, 44), 16 * uniform(9, 44), 1, rng()});
                add_fp8(Draw{uniform(129, 700), uniform(129, 700) | 1, uniform(129, 700) | 1, 1, rng()});
                add_fp8(Draw{uniform(1, 96), 16 * uniform(1, 6), 16 * uniform(1, 12), uniform(2, 4), rng()});
                if (!plan.quick) add_fp8(Draw{1024, 1024, 1024, 1, rng()});
            }
            // The rungs alone at sizes cuBLASLt may refuse: no side a multiple of 16, several
            // clusters of tiles, K past the ring's stages (drawn last, after every scaling's cases).
            if (plan.quick) continue;
            for (model::Fp8Scaling scaling : plan.fp8_scalings)
                for (KernelKind kind : model::kAllKernelKinds)
                    if (model::fp8_rung_scaling(kind) == scaling)
                        suite.push_back(make_request(of_kind(kind), dtype, 2111, 2143, 2087, 1, rng(), scaling));
        }
    };
    // Small random sizes: a side of 1 is as likely as any other, and sizes that a block or
    // tile divides are rare, so ghost threads and padded tiles occur in nearly every case.
    // K reaches 400 so the float tolerance has rounding to absorb.
    const int plain_cases = plan.quick ? 1 : 2;
    for (const KernelConfig& kernel : suite_kernels(plan.quick))
        for (Dtype dtype : plan.dtypes) {
            // The float rungs have no kernel for int32 or double (model::dtype_unsupported); fp8's
            // cases are drawn at the end (add_fp8_cases).
            if (model::dtype_unsupported(kernel.kind, dtype) || model::is_fp8(dtype)) continue;
            for (int i = 0; i < plain_cases; ++i)
                add(kernel, dtype, Draw{uniform(1, 160), uniform(1, 160), uniform(1, 400), 1, rng()});
            add(kernel, dtype, Draw{uniform(1, 96), uniform(1, 96), uniform(1, 200), uniform(2, 4), rng()});
            // The ladder's block tiles are up to 128×128: sizes over that, none a multiple,
            // so partial tiles sit at the edges of a grid of several blocks.
            if (model::is_ladder(kernel.kind) || model::is_tensor_core(kernel.kind)) {
                add(kernel, dtype, Draw{uniform(129, 700) | 1, uniform(129, 700) | 1, uniform(9, 500) | 1, 1, rng()});
                // Multiples of 4 that no tile divides: the float rungs' 128-bit path, with
                // partial tiles at the edges.
                const std::int64_t m_extra = 4 * uniform(0, 1);
                add(kernel, dtype,
                    Draw{4 * uniform(33, 175) + m_extra, 4 * uniform(33, 175), 4 * uniform(3, 125), uniform(1, 2),
                         rng()});
                // Multiples of 8 that no tile divides: the tensor-core rungs' cp.async and TMA path
                // without padded copies, partial tiles at the edges.
                if (model::is_tensor_core(kernel.kind))
                    add(kernel, dtype,
                        Draw{8 * uniform(17, 90) + 1, 8 * uniform(17, 90), 8 * uniform(2, 60), uniform(1, 2), rng()});
            }
        }
    if (plan.quick) {
        add_fp8_cases();
        if (plan.kernel) std::erase_if(suite, [&](const gpu::RunRequest& r) { return r.kernel.kind != *plan.kernel; });
        return suite;
    }

    // Large sizes, where rounding has had K = 1024 terms to grow and the grid is many waves
    // deep; the last one is above 2048³, where floats are checked against cuBLAS in FP64.
    for (Dtype dtype : plan.dtypes) {
        if (model::is_fp8(dtype)) continue;  // add_fp8_cases, below
        for (const KernelConfig& kernel :
             {two_d(KernelKind::Naive, 32, 8), two_d(KernelKind::NaiveRowFromX, 32, 8),
              one_d(KernelKind::RowPerThread, 128), one_d(KernelKind::ColumnPerThread, 128), tiled(16), tiled(32),
              cublas()})
            if (!model::dtype_unsupported(kernel.kind, dtype))
                suite.push_back(make_request(kernel, dtype, 1024, 1024, 1024, 1, rng()));
        if (!model::dtype_unsupported(KernelKind::Tiled, dtype)) {
            suite.push_back(make_request(tiled(16), dtype, 700, 900, 1100, 3, rng()));
            suite.push_back(make_request(tiled(32), dtype, 2111, 2143, 2087, 1, rng()));
        }
        for (KernelKind kind : model::kAllKernelKinds)
            if ((model::is_ladder(kind) || model::is_tensor_core(kind)) && !model::dtype_unsupported(kind, dtype)) {
                suite.push_back(make_request(of_kind(kind), dtype, 1024, 1024, 1024, 1, rng()));
                suite.push_back(make_request(of_kind(kind), dtype, 2111, 2143, 2087, 1, rng()));
            }
    }
    add_fp8_cases();
    if (plan.kernel) std::erase_if(suite, [&](const gpu::RunRequest& r) { return r.kernel.kind != *plan.kernel; });
    return suite;
}

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
    const auto resolved = resolve_check(options);
    if (const auto* why = std::get_if<std::string>(&resolved)) {
        err << "tilescope check: " << *why << '\n';
        return 2;
    }
    const CheckPlan& plan = std::get<CheckPlan>(resolved);

    gpu::Runner runner;
    const auto usable = usable_device(runner, "check", err);
    if (!usable) return 2;
    const gpu::DeviceInfo& device = *usable;
    const std::vector<gpu::RunRequest> suite = check_suite(plan);
    err << format_text("{}: {} cases{}, seed {} (repeat with --seed {})\n", device.limits.name, suite.size(),
                  plan.quick ? " (--quick)" : "", plan.seed, plan.seed);

    const auto start = std::chrono::steady_clock::now();
    // The price of each type in accuracy: the largest relative error of any checked case, per type.
    std::map<Dtype, std::pair<double, int>> accuracy;  // largest max_rel_error, cases checked
    int passed = 0;
    int failed = 0;
    int skipped = 0;
    // Progress: one line per kernel configuration once its small cases have run, and one
    // line per large case, with its time.
    std::string group;
    int group_counts[3] = {};  // passed, failed, skipped
    auto end_group = [&] {
        if (!group.empty()) {
            err << format_text("  {}: {} passed, {} failed", group, group_counts[0], group_counts[1]);
            if (group_counts[2] > 0) err << ", " << group_counts[2] << " skipped";
            err << '\n';
        }
        group.clear();
        group_counts[0] = group_counts[1] = group_counts[2] = 0;
    };
    for (const gpu::RunRequest& request : suite) {
        const model::Problem& p = request.problem;
        const bool large = p.m * p.n * p.k * p.batch >= std::int64_t{1} << 30;
        const std::string name = model::describe(request.kernel);
        if (large || name != group) end_group();
        if (!large) group = name;

        const auto case_start = std::chrono::steady_clock::now();
        const gpu::RunResult result = runner.wait(runner.submit(request));
        int outcome = 0;
        if (!result.ok && result.unsupported) {
            outcome = 2;
            out << "skip " << describe_case(request) << ": " << result.error << '\n';
        } else if (!result.ok || !result.check_passed) {
            outcome = 1;
            out << "FAIL " << describe_case(request) << " (input seed " << request.seed
                << "): " << (result.ok ? result.check_summary : result.error) << '\n';
        }
        (outcome == 0 ? passed : outcome == 1 ? failed : skipped) += 1;
        if (result.ok && result.checked) {
            auto& [largest, cases] = accuracy[p.dtype];
            largest = std::max(largest, result.max_rel_error);
            ++cases;
        }
        ++group_counts[outcome];
        if (large && outcome == 2) err << format_text("  {}: skipped\n", describe_case(request));
        if (large && outcome != 2) {
            const double case_s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - case_start).count();
            err << format_text("  {}: {} (kernel {} ms, case {} s)\n", describe_case(request),
                          outcome == 0 ? "pass" : "FAIL", result.median_ms, static_cast<int>(case_s * 10 + 0.5) / 10.0);
        }
    }
    end_group();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    err << format_text("{} cases in {} s\n", suite.size(), static_cast<int>(seconds + 0.5));
    out << accuracy_table(accuracy);
    out << passed << " passed, " << failed << " failed";
    if (skipped > 0) out << ", " << skipped << " skipped";
    out << '\n';
    return failed == 0 ? 0 : 1;
}

}  // namespace ts::cli
