// `tilescope record`: its report of a trace (the committed H200 ones), and the command
// on a machine without a GPU or with arguments it cannot record.
#include <gtest/gtest.h>

#include "cli/record.hpp"
#include "record/trace_file.hpp"
#include "support/gpu_skip.hpp"
#include "support/run_command.hpp"

namespace {

TEST(RecordCommand, SummarySaysWhereBlocksRanAndWhetherLoadsMatch) {
    auto loaded = ts::record::load_trace(std::string(TILESCOPE_TRACES_DIR) + "/nvidia-h200-tiled-40x28x36-t8.json");
    ASSERT_TRUE(std::holds_alternative<ts::model::KernelTrace>(loaded));
    ts::model::KernelTrace trace = std::get<ts::model::KernelTrace>(loaded);
    const std::string summary = ts::cli::record_summary(trace);
    EXPECT_NE(summary.find("recorded tiled T=8 on 40×28×36 on the NVIDIA H200"), std::string::npos) << summary;
    EXPECT_NE(summary.find("grid 4 × 5 = 20 blocks, 5 phases"), std::string::npos);
    EXPECT_NE(summary.find("the blocks ran on 20 of the GPU's 132 SMs, at most 20 at once, in 1 wave"),
              std::string::npos);
    EXPECT_NE(summary.find("loads: all 12800 recorded loads are the ones the model schedules"), std::string::npos);

    trace.loads[5].col += 1;
    EXPECT_NE(ts::cli::record_summary(trace).find("loads: DIFFER from the model: block (0, 0) phase 0, thread"),
              std::string::npos);
}

TEST(RecordCommand, RefusesWhatItCannotRecord) {
    ts::testing_support::expect_refused("record --kernel cublas",
                                        "only the naive, tiled, regtile-2d, warptile, mma, wgmma and warp-specialized "
                                        "kernels have recorded variants, not cublas");
    ts::testing_support::expect_refused("record --m 0", "tilescope record: ");
}

TEST(RecordCommand, WithoutAGpuItSaysWhy) {
    ts::testing_support::expect_refused_without_gpu("record --out /tmp/never.json", "tilescope record: no usable GPU: ");
}

}  // namespace
