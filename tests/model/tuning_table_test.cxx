// The tuned rung's table: what `tilescope-cli tune` writes is read back the same; the GPU
// and size pick the row a user expects; bad lines are named.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "model/ladder.hpp"
#include "model/tuning_table.hpp"

namespace ts::model {
namespace {

TuningTable parse_ok(std::string_view text) {
    auto parsed = parse_tuning_table(text, kTunedCandidateCount);
    EXPECT_TRUE(std::holds_alternative<TuningTable>(parsed)) << std::get<std::string>(parsed);
    return std::holds_alternative<TuningTable>(parsed) ? std::get<TuningTable>(parsed) : TuningTable{};
}

std::string error_of(std::string_view text) {
    auto parsed = parse_tuning_table(text, kTunedCandidateCount);
    return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "(parsed)";
}

TEST(TuningTable, PicksTheMostSpecificGpuAndTheFirstRowThatCoversTheSize) {
    const TuningTable table = parse_ok(R"(
# comment
[*]
* = 0
[NVIDIA H100]
1024 = 3
4096 = 4
* = 2
[NVIDIA H100 PCIe]
* = 1
)");
    ASSERT_EQ(table.sections.size(), 3u);
    EXPECT_EQ(pick_variant(table, "NVIDIA H100 80GB HBM3", 512), 3);
    EXPECT_EQ(pick_variant(table, "NVIDIA H100 80GB HBM3", 1024), 3);
    EXPECT_EQ(pick_variant(table, "NVIDIA H100 80GB HBM3", 1025), 4);
    EXPECT_EQ(pick_variant(table, "NVIDIA H100 80GB HBM3", 8192), 2);
    EXPECT_EQ(pick_variant(table, "NVIDIA H100 PCIe", 512), 1) << "the longer name is more specific";
    EXPECT_EQ(pick_variant(table, "NVIDIA H200", 512), 0) << "[*] catches every other GPU";
    EXPECT_EQ(pick_variant(TuningTable{}, "NVIDIA H200", 512), std::nullopt);
}

TEST(TuningTable, WritesWhatItReads) {
    TuningTable table;
    set_section(table, {"NVIDIA H200", {{1024, 3}, {0, 4}}});
    set_section(table, {"*", {{0, 0}}});
    set_section(table, {"NVIDIA H200", {{2048, 2}, {0, 3}}});  // replaces, keeps its place
    const TuningTable back = parse_ok(write_tuning_table(table));
    ASSERT_EQ(back.sections.size(), 2u);
    EXPECT_EQ(back.sections[0], (TuningSection{"NVIDIA H200", {{2048, 2}, {0, 3}}}));
    EXPECT_EQ(back.sections[1], (TuningSection{"*", {{0, 0}}}));
}

TEST(TuningTable, BadLinesAreNamed) {
    EXPECT_NE(error_of("1024 = 3\n").find("line 1"), std::string::npos);
    EXPECT_NE(error_of("[x]\n1024 = 99\n").find("line 2: the candidate must be a number from 0 to"), std::string::npos);
    EXPECT_NE(error_of("[x]\nabc = 1\n").find("size must be a whole number"), std::string::npos);
    EXPECT_NE(error_of("[x\n").find("in brackets"), std::string::npos);
    EXPECT_NE(error_of("[x]\n0 = 1\n").find("at least 1"), std::string::npos);
    EXPECT_NE(error_of("[x]\nhello\n").find("SIZE = CANDIDATE"), std::string::npos);
}

TEST(TuningTable, TheShippedTableParsesAndCoversEveryGpu) {
    const TuningTable shipped = parse_ok(kShippedTuningTable);
    EXPECT_TRUE(pick_variant(shipped, "Some Future GPU", 1 << 20).has_value());
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H100 80GB HBM3", 1024), 3) << "measured on the device";
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H100 80GB HBM3", 4096), 1);
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H200", 1024), 3);
}

}  // namespace
}  // namespace ts::model
