// `tilescope-cli check`: its arguments, its answer without a GPU, and the suite it would
// run, which must cover every kernel, tile width, element type and both mm and bmm.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "support/run_command.hpp"
#include "cli/check.hpp"
#include "model/launch_geometry.hpp"
#include "model/rung_info.hpp"

using namespace ts;

namespace {

using Outcome = ts::testing_support::CommandOutcome;

using ts::testing_support::expect_help_lists;
using ts::testing_support::expect_refused;
using ts::testing_support::run_cli;

cli::CheckPlan plan(std::uint64_t seed, bool quick = false) {
    cli::CheckOptions options;
    options.seed = std::to_string(seed);
    options.quick = quick;
    return std::get<cli::CheckPlan>(cli::resolve_check(options));
}

}  // namespace

TEST(CheckCommand, HelpListsTheFlags) {
    expect_help_lists("check", {"--seed", "--quick", "--dtype", "--scaling", "--kernel"});
}

TEST(CheckCommand, BadArgumentsExit2WithAMessage) {
    const std::pair<const char*, const char*> cases[] = {
        {"check --dtype quad", "--dtype must be int32, float, double, bf16, fp16, fp8 or all"},
        {"check --seed -1", "--seed expects a whole number"},
        {"check --dtype fp8 --scaling row", "--scaling must be tensor or block"},
        {"check --dtype float --scaling block", "--scaling chooses the scales of fp8 inputs"},
        {"check --kernel warp-specialised", "--kernel must be one of"},
        {"check --dtype fp8 --kernel tiled", "--kernel tiled: fp8 (e4m3 inputs, C = A·Bᵀ in BF16) runs on the fp8 and fp8-blocks rungs and on cuBLAS"},
        {"check --seed 12abc", "--seed expects a whole number"},
        {"check --seed 99999999999999999999999", "--seed expects a whole number"},
    };
    expect_refused(cases);
    const Outcome unknown = run_cli("check --frobnicate");
    EXPECT_NE(unknown.exit_code, 0);
    EXPECT_NE(unknown.output.find("frobnicate"), std::string::npos) << unknown.output;
}

TEST(CheckCommand, WithoutAGpuSaysWhyAndExits2) {
    const gpu::DeviceInfo device = gpu::probe_device();
    if (device.usable) GTEST_SKIP() << "a GPU is usable here (" << device.limits.name << "); see the gpu tests";
    const Outcome outcome = run_cli("check --quick --seed 1");
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    EXPECT_NE(outcome.output.find("no usable GPU"), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find(device.why_not), std::string::npos) << outcome.output;
    EXPECT_EQ(outcome.output.find("passed"), std::string::npos) << "no summary when nothing ran";
}

TEST(CheckSuite, CoversEveryKernelTileTypeAndBothMmAndBmm) {
    const auto suite = cli::check_suite(plan(42));
    std::set<model::KernelKind> kinds;
    std::set<int> tiles;
    std::set<std::pair<int, int>> naive_blocks;
    std::set<model::Dtype> dtypes;
    int batched = 0;
    int plain = 0;
    int modelled = 0;     // cases whose launch the model plans (not cuBLAS or a tensor-core rung)
    int no_multiple = 0;  // of those, cases whose M and N no block side or tile divides
    int above_cpu_limit = 0;
    for (const gpu::RunRequest& r : suite) {
        const model::Problem& p = r.problem;
        kinds.insert(r.kernel.kind);
        dtypes.insert(p.dtype);
        if (r.kernel.kind == model::KernelKind::Tiled) tiles.insert(r.kernel.tile);
        if (r.kernel.kind == model::KernelKind::Naive) naive_blocks.insert({r.kernel.block_x, r.kernel.block_y});
        (p.batch > 1 ? batched : plain) += 1;
        EXPECT_EQ(model::validate(p), std::nullopt) << model::describe(r.kernel);
        EXPECT_EQ(model::check_config(r.kernel), std::nullopt) << model::describe(r.kernel);
        EXPECT_TRUE(r.check);
        const auto g = model::plan_launch(r.kernel, p);
        if (g.modelled) ++modelled;
        if (g.modelled && g.ghost_threads > 0) ++no_multiple;
        if (p.m * p.n * p.k * p.batch > std::int64_t{2048} * 2048 * 2048) ++above_cpu_limit;
    }
    EXPECT_EQ(kinds.size(), std::size(model::kAllKernelKinds));
    EXPECT_EQ(tiles.size(), static_cast<std::size_t>(model::kMaxTile));
    EXPECT_GE(naive_blocks.size(), 6u);
    EXPECT_EQ(dtypes.size(), 6u) << "int32, float, double, bf16, fp16, fp8";
    EXPECT_GT(batched, 100);
    EXPECT_GT(plain, 100);
    EXPECT_GT(no_multiple, modelled * 3 / 4) << "most sizes leave ghost threads";
    EXPECT_GE(above_cpu_limit, 3) << "the cuBLAS reference is exercised in every type";

    // Every case gets fresh inputs.
    std::set<std::uint64_t> seeds;
    for (const gpu::RunRequest& r : suite) seeds.insert(r.seed);
    EXPECT_EQ(seeds.size(), suite.size());
}

TEST(CheckSuite, SameSeedSameSuiteOtherSeedOtherSizes) {
    const auto a = cli::check_suite(plan(7));
    const auto b = cli::check_suite(plan(7));
    const auto c = cli::check_suite(plan(8));
    ASSERT_EQ(a.size(), b.size());
    ASSERT_EQ(a.size(), c.size());
    int differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].problem.m, b[i].problem.m);
        EXPECT_EQ(a[i].seed, b[i].seed);
        differ += a[i].problem.m != c[i].problem.m;
    }
    EXPECT_GT(differ, static_cast<int>(a.size()) / 2);
}

TEST(CheckSuite, QuickIsSmallerAndTheDtypeFilterHolds) {
    const auto full = cli::check_suite(plan(3));
    const auto quick = cli::check_suite(plan(3, true));
    EXPECT_LT(quick.size() * 2, full.size());
    std::set<model::KernelKind> kinds;
    for (const gpu::RunRequest& r : quick) kinds.insert(r.kernel.kind);
    EXPECT_EQ(kinds.size(), std::size(model::kAllKernelKinds)) << "quick still runs every kernel";

    cli::CheckOptions options;
    options.seed = "3";
    options.dtype = "double";
    const auto only_double = cli::check_suite(std::get<cli::CheckPlan>(cli::resolve_check(options)));
    ASSERT_FALSE(only_double.empty());
    for (const gpu::RunRequest& r : only_double) EXPECT_EQ(r.problem.dtype, model::Dtype::Float64);
}

TEST(CheckSuite, Fp8IsCublasAndEachFp8RungInItsScalingsWithBlocksOneMatrixAtATime) {
    cli::CheckOptions options;
    options.seed = "5";
    options.dtype = "fp8";
    const auto suite = cli::check_suite(std::get<cli::CheckPlan>(cli::resolve_check(options)));
    ASSERT_FALSE(suite.empty());
    std::set<model::Fp8Scaling> scalings;
    bool partial_block = false;
    std::set<model::KernelKind> kinds;
    for (const gpu::RunRequest& r : suite) {
        EXPECT_EQ(r.problem.dtype, model::Dtype::Fp8E4M3);
        kinds.insert(r.kernel.kind);
        if (r.kernel.kind != model::KernelKind::Cublas) {
            EXPECT_EQ(model::fp8_rung_scaling(r.kernel.kind), r.problem.fp8_scaling) << model::kernel_name(r.kernel.kind);
        }
        EXPECT_EQ(model::validate(r.problem), std::nullopt);
        scalings.insert(r.problem.fp8_scaling);
        if (r.problem.fp8_scaling == model::Fp8Scaling::Block) {
            EXPECT_EQ(r.problem.batch, 1);
        }
        partial_block = partial_block || (r.problem.k > 128 && r.problem.k % 128 != 0);
    }
    EXPECT_EQ(scalings.size(), 2u);
    EXPECT_EQ(kinds, (std::set<model::KernelKind>{model::KernelKind::Fp8, model::KernelKind::Fp8Blocks,
                                                  model::KernelKind::Cublas}));
    EXPECT_TRUE(partial_block) << "some K leaves the last block of scales partial";

    options.scaling = "block";
    for (const gpu::RunRequest& r : cli::check_suite(std::get<cli::CheckPlan>(cli::resolve_check(options))))
        EXPECT_EQ(r.problem.fp8_scaling, model::Fp8Scaling::Block);
}

TEST(CheckSuite, OneKernelIsThatKernelsCasesOfTheWholeSuite) {
    cli::CheckOptions options;
    options.seed = "6";
    options.quick = true;
    const auto whole = cli::check_suite(std::get<cli::CheckPlan>(cli::resolve_check(options)));
    options.kernel = "cublas";
    const auto only = cli::check_suite(std::get<cli::CheckPlan>(cli::resolve_check(options)));
    std::vector<std::uint64_t> expected;
    for (const gpu::RunRequest& r : whole)
        if (r.kernel.kind == model::KernelKind::Cublas) expected.push_back(r.seed);
    std::vector<std::uint64_t> got;
    for (const gpu::RunRequest& r : only) got.push_back(r.seed);
    EXPECT_FALSE(got.empty());
    EXPECT_EQ(got, expected) << "the same cases, drawn as the whole suite draws them";
}
