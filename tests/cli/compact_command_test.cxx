// `tilescope-cli compact`, how the committed measurements are made small, and bench's --json,
// which still lists every sample unless told otherwise.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/bench.hpp"
#include "record/measurement_file.hpp"
#include "support/run_command.hpp"

namespace {

using Outcome = ts::testing_support::CommandOutcome;

using ts::testing_support::run_cli;

const std::string kOldFile = TILESCOPE_RECORD_TEST_DATA "/old-pretty-nvidia-h200-2026-11-21.json";

std::string text_of(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(CompactCommand, RewritesAMeasurementWithoutItsSampleLists) {
    const auto out = std::filesystem::temp_directory_path() / "tilescope_compact_test.json";
    const Outcome outcome = run_cli("compact '" + kOldFile + "' '" + out.string() + "'");
    ASSERT_EQ(outcome.exit_code, 0) << outcome.output;
    EXPECT_NE(outcome.output.find("3 points, 30 samples counted, not listed"), std::string::npos) << outcome.output;
    const std::string text = text_of(out);
    EXPECT_EQ(text.find("samples_ms"), std::string::npos);
    EXPECT_LT(text.size(), text_of(kOldFile).size() * 3 / 4);
    auto loaded = ts::record::load(out);
    std::filesystem::remove(out);
    ASSERT_TRUE(std::holds_alternative<ts::record::Measurement>(loaded)) << std::get<std::string>(loaded);
    const auto& measurement = std::get<ts::record::Measurement>(loaded);
    EXPECT_EQ(measurement.meta.device.name, "NVIDIA H200");
    ASSERT_EQ(measurement.points.size(), 3u);
    EXPECT_EQ(ts::record::sample_count(measurement.points[2]), 10);
    EXPECT_DOUBLE_EQ(measurement.points[2].median_ms, 22.253664);
}

TEST(CompactCommand, RefusesWhatItCannotReadOrWrite) {
    Outcome outcome = run_cli("compact /nonexistent.json /tmp/never.json");
    EXPECT_EQ(outcome.exit_code, 1);
    EXPECT_NE(outcome.output.find("/nonexistent.json: cannot open"), std::string::npos) << outcome.output;

    outcome = run_cli("compact '" + kOldFile + "' /nonexistent/folder/out.json");
    EXPECT_EQ(outcome.exit_code, 1);
    EXPECT_NE(outcome.output.find("cannot write /nonexistent/folder/out.json"), std::string::npos) << outcome.output;

    // A CSV has no GPU or date to keep.
    const auto csv = std::filesystem::temp_directory_path() / "tilescope_compact_test.csv";
    auto old = ts::record::load(kOldFile);
    ASSERT_TRUE(std::holds_alternative<ts::record::Measurement>(old));
    ASSERT_EQ(ts::record::save_text(csv, ts::record::to_csv(std::get<ts::record::Measurement>(old))), std::nullopt);
    outcome = run_cli("compact '" + csv.string() + "' /tmp/never.json");
    std::filesystem::remove(csv);
    EXPECT_EQ(outcome.exit_code, 1);
    EXPECT_NE(outcome.output.find("a CSV holds no GPU"), std::string::npos) << outcome.output;

    outcome = run_cli("compact " + kOldFile);
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
}

ts::cli::BenchOptions parsed_bench(const std::string& arguments) {
    CLI::App app;
    ts::cli::BenchOptions options;
    ts::cli::add_bench_command(app, options);
    app.parse("bench " + arguments, false);
    return options;
}

TEST(BenchJson, ListsEverySampleUnlessToldOtherwise) {
    EXPECT_EQ(ts::cli::json_sample_list(parsed_bench("--json run.json")), ts::record::SampleList::All);
    EXPECT_EQ(ts::cli::json_sample_list(parsed_bench("--json run.json --json-samples all")),
              ts::record::SampleList::All);
    EXPECT_EQ(ts::cli::json_sample_list(parsed_bench("--json run.json --json-samples none")),
              ts::record::SampleList::CountOnly);
    EXPECT_THROW(parsed_bench("--json-samples some"), CLI::ValidationError);
    // And what the default writes holds the samples themselves.
    auto old = ts::record::load(kOldFile);
    ASSERT_TRUE(std::holds_alternative<ts::record::Measurement>(old));
    const std::string json = ts::record::to_json(std::get<ts::record::Measurement>(old),
                                                 ts::cli::json_sample_list(parsed_bench("--json run.json")));
    EXPECT_NE(json.find("\"samples_ms\":[0.35"), std::string::npos) << json.substr(0, 2000);
}

}  // namespace
