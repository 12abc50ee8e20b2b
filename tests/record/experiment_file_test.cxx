// Recorded experiment results (record/experiment_file.hpp) without ImGui: the committed files
// under assets/experiments read with their GPU, date and consistent heat maps; fields of the
// wrong type or out of range, and entries of the wrong shape, refused with the file's name.
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "record/experiment_file.hpp"
#include "record/whole_number.hpp"
#include "support/parse_result.hpp"

namespace {

using ts::record::ExperimentFile;

std::string error_of(const std::string& text) {
    return ts::testing_support::message_of(ts::record::parse_experiment_file(text, "run.json"));
}

ExperimentFile parsed(const std::string& text) {
    return ts::testing_support::value_or_failure(ts::record::parse_experiment_file(text, "run.json"));
}

TEST(ExperimentFile, EveryCommittedOneLoads) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(TILESCOPE_EXPERIMENTS_DIR)) {
        if (entry.path().extension() != ".json") continue;
        ++files;
        SCOPED_TRACE(entry.path().string());
        auto loaded = ts::record::load_experiment_file(entry.path());
        ASSERT_TRUE(std::holds_alternative<ExperimentFile>(loaded)) << std::get<std::string>(loaded);
        const ExperimentFile& file = std::get<ExperimentFile>(loaded);
        EXPECT_EQ(file.device, "NVIDIA H100 80GB HBM3");
        EXPECT_EQ(file.date, "2026-11-25") << "from the file's name";
        ASSERT_FALSE(file.results.empty());
        for (const auto& result : file.results) {
            EXPECT_TRUE(result.error.empty()) << result.error;
            ASSERT_TRUE(result.run.has_value());
            EXPECT_EQ(result.run->runs, 50);
            EXPECT_GT(result.c.problem.m, 0);
            const auto& map = result.run->map;
            EXPECT_EQ(map.wrong_runs.size(), static_cast<std::size_t>(map.rows) * static_cast<std::size_t>(map.cols));
            EXPECT_EQ(entry.path().filename().string().rfind(std::string(ts::model::experiment_name(result.experiment)), 0), 0u);
        }
    }
    EXPECT_EQ(files, 4);
}

const std::string kOneRun =
    R"({"device": "G", "date_utc": "2026-11-25T00:00:00Z", "cases": [{"run": {"experiment": "no-bounds-check",
        "case": {"kind": "tiled", "tile": 16, "m": 100, "n": 100, "k": 64}, "runs": 50, "wrong_runs": 50,
        "map": {"rows": 2, "cols": 2, "bin_rows": 50, "bin_cols": 50, "wrong_runs": [50, 50, 50, 0]}}}]})";

TEST(ExperimentFile, ReadsTheCliShape) {
    const ExperimentFile file = parsed(kOneRun);
    EXPECT_EQ(file.device, "G");
    EXPECT_EQ(file.date, "2026-11-25");
    ASSERT_EQ(file.results.size(), 1u);
    EXPECT_EQ(file.results[0].experiment, ts::model::Experiment::NoBoundsCheck);
    EXPECT_EQ(file.results[0].c.kernel.kind, ts::model::KernelKind::Tiled);
    EXPECT_EQ(file.results[0].c.problem.m, 100);
    EXPECT_EQ(file.results[0].run->map.wrong_runs[3], 0);
}

TEST(ExperimentFile, RefusesWhatWouldNotFitItsField) {
    const auto with = [](const std::string& from, const std::string& to) {
        std::string text = kOneRun;
        text.replace(text.find(from), from.size(), to);
        return text;
    };
    EXPECT_NE(error_of(with("\"runs\": 50", "\"runs\": 1e300")).find("\"runs\": 1e+300 is out of range"),
              std::string::npos) << error_of(with("\"runs\": 50", "\"runs\": 1e300"));
    EXPECT_NE(error_of(with("\"runs\": 50", "\"runs\": 4294967296")).find("out of range"), std::string::npos);
    EXPECT_NE(error_of(with("\"runs\": 50", "\"runs\": 2.5")).find("\"runs\": expected a whole number, got number"),
              std::string::npos);
    EXPECT_EQ(parsed(with("\"runs\": 50", "\"runs\": 50.0")).results.at(0).run->runs, 50) << "a whole 50.0 is 50";
    EXPECT_NE(error_of(with("\"m\": 100", "\"m\": \"many\"")).find("\"m\": expected a whole number, got string"),
              std::string::npos);
    EXPECT_NE(error_of(with("\"wrong_runs\": 50,", "\"wrong_runs\": 51,")).find("51 wrong runs of 50"), std::string::npos);
    EXPECT_NE(error_of(with("\"bin_rows\": 50", "\"bin_rows\": 0")).find("a heat map of 2 × 2 bins"), std::string::npos);
    EXPECT_NE(error_of(with("[50, 50, 50, 0]", "[50, 50, 50]")).find("with 3 counts"), std::string::npos);
    EXPECT_NE(error_of(with("\"kind\": \"tiled\"", "\"kind\": 99")).find("kernel 99 is none"), std::string::npos);
    EXPECT_NE(error_of(with("\"no-bounds-check\"", "7")).find("experiment 7 is none of the four"), std::string::npos);
    // Every refusal names the file first.
    EXPECT_EQ(error_of(with("\"runs\": 50", "\"runs\": 2.5")).rfind("run.json: not a measurement of experiments (", 0), 0u);
}

TEST(ExperimentFile, RefusesEntriesOfTheWrongShape) {
    EXPECT_EQ(error_of("{\"cases\": 3}"), "run.json: no list of results (\"results\": [...]) in it");
    EXPECT_EQ(error_of("3"), "run.json: neither a list of results nor an object holding one");
    EXPECT_NE(error_of("[3]").find("a result that is number, not an object"), std::string::npos);
    EXPECT_NE(error_of("[{}]").find("neither a result nor an experiment run"), std::string::npos);
    EXPECT_NE(error_of("[{\"case\": []}]").find("a case that is array"), std::string::npos);
    EXPECT_NE(error_of("[{\"case\": {}, \"stale_reads\": {\"reads\": 4}}]").find("\"reads\": expected a list"),
              std::string::npos);
    EXPECT_NE(error_of("[{\"case\": {}, \"stale_reads\": {\"reads\": [{\"operand\": \"C\"}]}}]").find("neither As nor Bs"),
              std::string::npos);
    EXPECT_NE(error_of("{\"results\": [").find("not a measurement of experiments"), std::string::npos);
    // A failed run has its request and its reason, and stale reads without counts are kept.
    const ExperimentFile failed = parsed(
        R"([{"ok": false, "error": "boom", "request": {"kernel": {"kind": 4, "tile": 8}, "problem": {"m": 9, "n": 9, "k": 9}, "experiment": 2},
            "stale_reads": {"reads": [{"operand": 66}]}}])");
    ASSERT_EQ(failed.results.size(), 1u);
    EXPECT_EQ(failed.results[0].error, "boom");
    EXPECT_EQ(failed.results[0].experiment, ts::model::Experiment::NoBoundsCheck);
    EXPECT_FALSE(failed.results[0].run.has_value());
    ASSERT_TRUE(failed.results[0].stale.has_value());
    EXPECT_EQ(failed.results[0].stale->reads.at(0).operand, 'B');
}

}  // namespace

// What every reader of outside JSON takes for an integer field (the wire's messages, these files).
TEST(WholeNumber, OnlyWhatTheFieldHolds) {
    using nlohmann::json;
    using ts::record::whole_number;
    EXPECT_EQ(whole_number<int>(json(16)), 16);
    EXPECT_EQ(whole_number<int>(json(-7)), -7);
    EXPECT_EQ(whole_number<int>(json(50.0)), 50);  // hand-written
    EXPECT_EQ(whole_number<int>(json(16.5)), std::nullopt);
    EXPECT_EQ(whole_number<int>(json(1.3375e34)), std::nullopt);  // what the fuzzer sent the wire
    EXPECT_EQ(whole_number<int>(json(2147483648LL)), std::nullopt);
    EXPECT_EQ(whole_number<int>(json(-2147483649LL)), std::nullopt);
    EXPECT_EQ(whole_number<unsigned>(json(-1)), std::nullopt);
    EXPECT_EQ(whole_number<std::int64_t>(json(18446744073709551615ULL)), std::nullopt);
    EXPECT_EQ(whole_number<std::uint64_t>(json(18446744073709551615ULL)), 18446744073709551615ULL);
    // 2^63 is a double but no int64; the largest double below it is one.
    EXPECT_EQ(whole_number<std::int64_t>(json(0x1p63)), std::nullopt);
    EXPECT_EQ(whole_number<std::int64_t>(json(-0x1p63)), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(whole_number<char>(json(65)), 'A');
    EXPECT_EQ(whole_number<char>(json(300)), std::nullopt);
    EXPECT_EQ(whole_number<int>(json("16")), std::nullopt);
    EXPECT_EQ(whole_number<int>(json(true)), std::nullopt);
    EXPECT_EQ(whole_number<int>(nlohmann::ordered_json(8)), 8);
}
