// `tilescope-cli tune`: its arguments, its plan for either tuned rung, and the table and
// winners it makes of measurements (no GPU needed for those).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/tune.hpp"
#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/tensor_core/pipeline.hpp"
#include "support/run_command.hpp"

using namespace ts;

namespace {

using Outcome = ts::testing_support::CommandOutcome;
using ts::testing_support::expect_refused;
using ts::testing_support::run_cli;

TEST(TuneCommand, BadArgumentsExit2WithAMessage) {
    const std::pair<const char*, const char*> cases[] = {
        {"tune --kernel persistent --plan", "--kernel must be tuned or tc-tuned, got \"persistent\""},
        {"tune --kernel tc-tuned --dtype float --plan", "runs on the tensor cores"},
        {"tune --kernel tuned --dtype bf16 --plan", "bf16 is for the tensor-core rungs"},
        {"tune --kernel tc-tuned --dtype int8 --plan", "--dtype must be float, bf16 or fp16"},
        {"tune --kernel tc-tuned --size 0 --plan", "--size must be at least 1, got 0"},
        {"tune --kernel tc-tuned --settle -1 --plan", "--settle must be between 0 and 60 seconds"},
    };
    expect_refused(cases);
}

// The plan names every candidate of the rung asked for, in its type, without a GPU.
TEST(TuneCommand, PlansEitherRung) {
    const Outcome tc = run_cli("tune --kernel tc-tuned --size 2048,4096 --plan --output /tmp/x.ini");
    EXPECT_EQ(tc.exit_code, 0) << tc.output;
    EXPECT_NE(tc.output.find(model::format_text("{} candidates of tc-tuned × 2 sizes, bf16", model::kTcTunedCandidateCount)),
              std::string::npos)
        << tc.output;
    EXPECT_NE(tc.output.find("#1 128×128×64, 5 stages, clusters of 2: 384 threads"), std::string::npos) << tc.output;
    EXPECT_NE(tc.output.find("#2 128×256×64, 3 stages, no cluster"), std::string::npos) << tc.output;
    const Outcome fp16 = run_cli("tune --kernel tc-tuned --dtype fp16 --plan --output /tmp/x.ini");
    EXPECT_NE(fp16.output.find(", fp16, cold L2"), std::string::npos) << fp16.output;
    const Outcome tuned = run_cli("tune --plan --output /tmp/x.ini");
    EXPECT_EQ(tuned.exit_code, 0) << tuned.output;
    EXPECT_NE(tuned.output.find(model::format_text("{} candidates of tuned", model::kTunedCandidateCount)),
              std::string::npos)
        << tuned.output;
    EXPECT_NE(tuned.output.find(", float, cold L2"), std::string::npos) << tuned.output;
}

// The winners per size, the largest one's also for anything larger, in the rung's section; the
// table marks them and shows cuBLAS beside.
TEST(TuneCommand, WinnersAndTableOfMeasurements) {
    const std::vector<cli::TuneMeasurement> measured = {
        {1024, 0, 0.019, {}}, {1024, 1, 0.014, {}}, {1024, 2, 0.0, "too many resources requested"},
        {4096, 0, 0.185, {}}, {4096, 1, 0.208, {}}, {4096, 2, 0.194, {}},
    };
    const model::TuningSection section = cli::winners("NVIDIA H100 80GB HBM3", model::KernelKind::TcTuned, measured);
    EXPECT_EQ(section, (model::TuningSection{"NVIDIA H100 80GB HBM3", {{1024, 1}, {4096, 0}, {0, 0}},
                                             model::KernelKind::TcTuned}));
    const std::string table = cli::tune_table(model::KernelKind::TcTuned, measured, {{1024, -1, 0.009, {}}});
    EXPECT_NE(table.find("#0 128×256×64, 3 stages, clusters of 2"), std::string::npos) << table;
    EXPECT_NE(table.find("0.014 (100.0 %) *"), std::string::npos) << table;
    EXPECT_NE(table.find("0.019 (73.7 %)"), std::string::npos) << table;
    EXPECT_NE(table.find("did not run"), std::string::npos) << table;
    EXPECT_NE(table.find("cuBLAS (for comparison)"), std::string::npos) << table;
    EXPECT_EQ(table.find("#3 "), std::string::npos) << "a candidate never measured gets no row\n" << table;
}

}  // namespace
