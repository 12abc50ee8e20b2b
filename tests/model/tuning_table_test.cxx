// The tuned rung's table: what `tilescope-cli tune` writes is read back the same; the GPU
// and size pick the row a user expects; bad lines are named.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "model/format.hpp"
#include "model/ladder.hpp"
#include "model/tensor_core/pipeline.hpp"
#include "model/tuning_table.hpp"

namespace ts::model {
namespace {

TuningTable parse_ok(std::string_view text) {
    auto parsed = parse_tuning_table(text);
    EXPECT_TRUE(std::holds_alternative<TuningTable>(parsed)) << std::get<std::string>(parsed);
    return std::holds_alternative<TuningTable>(parsed) ? std::get<TuningTable>(parsed) : TuningTable{};
}

std::string error_of(std::string_view text) {
    auto parsed = parse_tuning_table(text);
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

// tc-tuned's rows live in sections of their own, "[tc-tuned: GPU]", checked against its own
// candidates; the tuned rung's sections stay as every earlier table wrote them.
TEST(TuningTable, TcTunedHasSectionsOfItsOwn) {
    const TuningTable table = parse_ok(R"(
[NVIDIA H100]
* = 4
[tc-tuned: NVIDIA H100]
1024 = 3
* = 0
[tuned: NVIDIA H200]
* = 2
)");
    ASSERT_EQ(table.sections.size(), 3u);
    EXPECT_EQ(table.sections[1], (TuningSection{"NVIDIA H100", {{1024, 3}, {0, 0}}, KernelKind::TcTuned}));
    EXPECT_EQ(table.sections[2], (TuningSection{"NVIDIA H200", {{0, 2}}, KernelKind::Tuned}));
    EXPECT_EQ(pick_variant(table, "NVIDIA H100 80GB HBM3", 8192), 4);
    EXPECT_EQ(pick_variant(table, "NVIDIA H100 80GB HBM3", 512, KernelKind::TcTuned), 3);
    EXPECT_EQ(pick_variant(table, "NVIDIA H100 80GB HBM3", 8192, KernelKind::TcTuned), 0);
    EXPECT_EQ(pick_variant(table, "NVIDIA H200", 512, KernelKind::TcTuned), std::nullopt)
        << "the tuned rung's rows say nothing of tc-tuned";
    // Written back, each section keeps its rung; set_section replaces only its own GPU and rung.
    TuningTable edited = table;
    set_section(edited, {"NVIDIA H100", {{0, 1}}, KernelKind::TcTuned});
    const TuningTable back = parse_ok(write_tuning_table(edited));
    ASSERT_EQ(back.sections.size(), 3u);
    EXPECT_EQ(back.sections[0], table.sections[0]);
    EXPECT_EQ(back.sections[1], (TuningSection{"NVIDIA H100", {{0, 1}}, KernelKind::TcTuned}));
    // A tuned GPU name that would read back as a rung's section is written with its rung.
    const TuningTable odd = parse_ok("[tuned: tc-tuned: x]\n* = 1\n");
    ASSERT_EQ(odd.sections.size(), 1u);
    EXPECT_EQ(parse_ok(write_tuning_table(odd)).sections, odd.sections);
    // Candidates are counted per rung: past tc-tuned's last is an error in its section.
    EXPECT_NE(error_of(format_text("[tc-tuned: x]\n* = {}\n", kTcTunedCandidateCount)).find("tc-tuned has"),
              std::string::npos);
    EXPECT_NE(error_of("[tc-tuned: ]\n* = 0\n").find("in brackets"), std::string::npos);
}

TEST(TuningTable, TheShippedTableParsesAndCoversEveryGpu) {
    const TuningTable shipped = parse_ok(kShippedTuningTable);
    EXPECT_TRUE(pick_variant(shipped, "Some Future GPU", 1 << 20).has_value());
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H100 80GB HBM3", 1024), 3) << "measured on the device";
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H100 80GB HBM3", 4096), 1);
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H200", 1024), 3);
    EXPECT_TRUE(pick_variant(shipped, "Some Future GPU", 1 << 20, KernelKind::TcTuned).has_value());
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H100 80GB HBM3", 1024, KernelKind::TcTuned), 3) << "measured on the device";
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H100 80GB HBM3", 2048, KernelKind::TcTuned), 4);
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H100 80GB HBM3", 4096, KernelKind::TcTuned), 4);
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H100 80GB HBM3", 4099, KernelKind::TcTuned), 5);
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H100 80GB HBM3", 8192, KernelKind::TcTuned), 5);
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H200", 1024, KernelKind::TcTuned), 3);
    EXPECT_EQ(pick_variant(shipped, "NVIDIA H200", 8192, KernelKind::TcTuned), 4);
    EXPECT_EQ(pick_variant(shipped, "NVIDIA RTX 4090", 1024, KernelKind::TcTuned), 0) << "18's shape until tuned";
}

}  // namespace
}  // namespace ts::model
