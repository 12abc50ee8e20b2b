// Measurements: what bench writes reads back the same; broken, partial and missing files say
// what is wrong and where; the CSV is the flat table pandas expects.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "record/measurement_file.hpp"
#include "support/parse_result.hpp"

namespace ts::record {
namespace {

using Json = nlohmann::ordered_json;

Measurement sample() {
    Measurement r;
    r.meta.tilescope_version = "0.1.0";
    r.meta.date_utc = "2025-11-21T05:33:07Z";
    r.meta.command_line = "tilescope-cli bench --kernel tiled,cublas --size 2048 --json 'my run.json'";
    r.meta.device = {"NVIDIA H200", "9.0", 132,    std::int64_t{141} << 30, 60 << 20,
                     "13.0",        "13.0", 1980.0, 3201.0,                  5120};
    r.meta.timing.end_to_end_runs = 3;

    Point tiled;
    tiled.kernel = "tiled";
    tiled.config = "tiled T=32";
    tiled.tile = 32;
    tiled.m = tiled.n = tiled.k = 2048;
    tiled.dtype = "float";
    tiled.ok = true;
    tiled.samples_ms = {1.9302, 1.931, 1.9299, 1.95};
    tiled.median_ms = 1.9306;
    tiled.p20_ms = 1.93;
    tiled.p80_ms = 1.935;
    tiled.mean_ms = 1.935;
    tiled.min_ms = 1.9299;
    tiled.max_ms = 1.95;
    tiled.noise_pct = 0.49;
    tiled.stop_reason = "noise";
    tiled.gflops = 8901.5;
    tiled.model_traffic_bytes = std::int64_t{2} * 2048 * 2048 * 2048 * 4 / 32 + 2048 * 2048 * 4;
    tiled.model_bandwidth_GBps = 580.2;
    tiled.end_to_end_ms = 21.5;
    tiled.checked = true;
    tiled.check_passed = true;
    tiled.max_rel_error = 3.1e-7;
    tiled.check_summary = "max rel. error 3.1e-07; all cells within 2·K·u·Σ|a·b|: pass";
    tiled.cpu_triple_loop_ms = 81234.5;
    tiled.cpu_is_estimate = true;
    tiled.cpu_estimated_from = "1024x1024x1024";

    Point cublas = tiled;
    cublas.index = 1;
    cublas.kernel = "cublas";
    cublas.config = "cublas";
    cublas.tile.reset();
    cublas.model_traffic_bytes.reset();  // not modelled
    cublas.model_bandwidth_GBps.reset();

    Point failed;
    failed.index = 2;
    failed.kernel = "naive";
    failed.config = "naive 64×32";
    failed.block_x = 64;
    failed.block_y = 32;
    failed.m = failed.n = failed.k = 2048;
    failed.dtype = "float";
    failed.error = "a block of 64×32 = 2048 threads, but the GPU allows 1024; CUDA reports: \"invalid argument\"";
    r.points = {tiled, cublas, failed};
    return r;
}

Measurement parsed(const std::string& text) { return testing_support::value_or_failure(parse_json(text, "test.json")); }

std::string error_of(const std::string& text) { return testing_support::message_of(parse_json(text, "run.json")); }

TEST(Measurement, RoundTripKeepsEverything) {
    const Measurement original = sample();
    const std::string json = to_json(original);
    const Measurement back = parsed(json);
    EXPECT_EQ(to_json(back), json);  // every field, samples included

    EXPECT_EQ(back.meta.device.name, "NVIDIA H200");
    EXPECT_EQ(back.meta.device.clock_mhz, 1980.0);
    EXPECT_EQ(back.meta.command_line, original.meta.command_line);
    ASSERT_EQ(back.points.size(), 3u);
    EXPECT_EQ(back.points[0].samples_ms, original.points[0].samples_ms);
    EXPECT_EQ(back.points[0].tile, 32);
    EXPECT_FALSE(back.points[0].block_x.has_value());
    EXPECT_FALSE(back.points[1].model_bandwidth_GBps.has_value());
    EXPECT_EQ(back.points[0].cpu_is_estimate, true);
    EXPECT_FALSE(back.points[2].ok);
    EXPECT_EQ(back.points[2].error, original.points[2].error);
}

TEST(Measurement, SavesAndLoadsAFile) {
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "tilescope_record_test.json";
    ASSERT_EQ(save_text(file, to_json(sample())), std::nullopt);
    auto loaded = load(file);
    std::filesystem::remove(file);
    ASSERT_TRUE(std::holds_alternative<Measurement>(loaded)) << std::get<std::string>(loaded);
    EXPECT_EQ(to_json(std::get<Measurement>(loaded)), to_json(sample()));
}

TEST(Measurement, FailedPointsStoreNullTiming) {
    const Json doc = Json::parse(to_json(sample()));
    const Json& failed = doc["points"][2];
    EXPECT_TRUE(failed["median_ms"].is_null());
    EXPECT_TRUE(failed["gflops"].is_null());
    EXPECT_EQ(failed["samples"], 0);
    EXPECT_TRUE(doc["points"][1]["model_bandwidth_GBps"].is_null());
}

TEST(Measurement, MissingFileSaysSo) {
    auto loaded = load("/nonexistent/folder/run.json");
    ASSERT_TRUE(std::holds_alternative<std::string>(loaded));
    EXPECT_NE(std::get<std::string>(loaded).find("/nonexistent/folder/run.json: cannot open"), std::string::npos)
        << std::get<std::string>(loaded);
}

TEST(Measurement, CorruptJsonNamesFileLineAndColumn) {
    EXPECT_EQ(error_of("{\n  \"format\": \"tilescope-bench\",\n  oops\n}").rfind("run.json:3:3: not valid JSON", 0), 0u)
        << error_of("{\n  \"format\": \"tilescope-bench\",\n  oops\n}");
    // Cut off half-way, as a full disk leaves it.
    const std::string json = to_json(sample());
    const std::string cut = error_of(json.substr(0, json.size() / 2));
    EXPECT_EQ(cut.rfind("run.json:", 0), 0u) << cut;
    EXPECT_NE(cut.find("not valid JSON"), std::string::npos) << cut;
    EXPECT_NE(error_of(""), "(no error)");
}

TEST(Measurement, MissingAndMistypedFieldsNameTheirPath) {
    Json doc = Json::parse(to_json(sample()));
    doc["points"][1].erase("median_ms");
    EXPECT_EQ(error_of(doc.dump()), "run.json: points[1]: missing field \"median_ms\"");

    doc = Json::parse(to_json(sample()));
    doc["meta"]["device"].erase("name");
    EXPECT_EQ(error_of(doc.dump()), "run.json: document.meta.device: missing field \"name\"");

    doc = Json::parse(to_json(sample()));
    doc["points"][0]["m"] = "big";
    EXPECT_EQ(error_of(doc.dump()), "run.json: points[0].m: expected a whole number, got string");

    doc = Json::parse(to_json(sample()));
    doc["points"][0]["samples_ms"][2] = "fast";
    EXPECT_EQ(error_of(doc.dump()), "run.json: points[0].samples_ms[2]: expected a number, got string");

    // A measured point must have its timing; only failed ones may leave it null.
    doc = Json::parse(to_json(sample()));
    doc["points"][0]["median_ms"] = nullptr;
    EXPECT_EQ(error_of(doc.dump()), "run.json: points[0].median_ms: expected a number, got null");

    doc = Json::parse(to_json(sample()));
    doc["points"][0]["samples"] = 3;
    EXPECT_NE(error_of(doc.dump()).find("\"samples\" says 3 but samples_ms holds 4"), std::string::npos);
}

TEST(Measurement, IsWrittenOnePointPerLine) {
    // The format and metadata on the first line, then a line per point: a diff names the points.
    const std::vector<std::string> text_lines = [] {
        std::vector<std::string> out;
        const std::string json = to_json(sample());
        for (std::size_t start = 0, end; (end = json.find('\n', start)) != std::string::npos; start = end + 1)
            out.push_back(json.substr(start, end - start));
        return out;
    }();
    ASSERT_EQ(text_lines.size(), 1u + 3u + 1u);
    EXPECT_EQ(text_lines[0].rfind("{\"format\":\"tilescope-bench\",\"format_version\":1,\"meta\":{", 0), 0u) << text_lines[0];
    EXPECT_EQ(text_lines[1].rfind("{\"index\":0,", 0), 0u) << text_lines[1];
    EXPECT_NE(text_lines[1].find("\"samples_ms\":[1.9302,1.931,1.9299,1.95]"), std::string::npos) << text_lines[1];
    EXPECT_TRUE(text_lines[0].ends_with(",\"points\":[")) << text_lines[0];
    EXPECT_TRUE(text_lines[1].ends_with("},")) << text_lines[1];
    EXPECT_EQ(text_lines[4], "]}");
}

TEST(Measurement, CompactKeepsWhatTheAppShowsAndDropsTheSampleList) {
    const Measurement original = sample();
    const std::string compact = to_json(original, SampleList::CountOnly);
    EXPECT_EQ(compact.find("samples_ms"), std::string::npos) << compact;
    EXPECT_LT(compact.size(), to_json(original).size());
    const Measurement back = parsed(compact);
    EXPECT_EQ(back.meta.device.name, "NVIDIA H200");
    EXPECT_EQ(back.meta.date_utc, original.meta.date_utc);
    EXPECT_FALSE(back.from_csv);
    ASSERT_EQ(back.points.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        SCOPED_TRACE(i);
        const Point& a = original.points[i];
        const Point& b = back.points[i];
        EXPECT_TRUE(b.samples_ms.empty());
        EXPECT_EQ(sample_count(b), sample_count(a));
        EXPECT_EQ(b.median_ms, a.median_ms);
        EXPECT_EQ(b.p20_ms, a.p20_ms);
        EXPECT_EQ(b.p80_ms, a.p80_ms);
        EXPECT_EQ(b.noise_pct, a.noise_pct);
        EXPECT_EQ(b.ok, a.ok);
        EXPECT_EQ(b.check_summary, a.check_summary);
    }
    EXPECT_EQ(sample_count(back.points[0]), 4);
    EXPECT_EQ(to_json(back, SampleList::CountOnly), compact);
    EXPECT_EQ(to_json(without_samples(original), SampleList::CountOnly), compact);
    // Written again with every sample asked for, a measured point has no list to write: it
    // keeps its count rather than claiming an empty list.
    const std::string again = to_json(back);
    EXPECT_EQ(again.find("\"samples_ms\":[1"), std::string::npos) << again;
    EXPECT_EQ(sample_count(parsed(again).points[0]), 4);
}

TEST(Measurement, CompactPointsMustCountTheirSamples) {
    Json doc = Json::parse(to_json(sample(), SampleList::CountOnly));
    doc["points"][0]["samples"] = 0;
    EXPECT_EQ(error_of(doc.dump()), "run.json: points[0]: \"samples\" is 0 for a measured point");
    doc["points"][0]["samples"] = -4;
    EXPECT_NE(error_of(doc.dump()).find("\"samples\" is -4"), std::string::npos);
    doc["points"][0].erase("samples");
    EXPECT_EQ(error_of(doc.dump()), "run.json: points[0]: missing field \"samples\"");
    // A failed point counts none, compact or not.
    doc = Json::parse(to_json(sample(), SampleList::CountOnly));
    EXPECT_EQ(doc["points"][2]["samples"], 0);
    EXPECT_EQ(parsed(doc.dump()).points.size(), 3u);
}

TEST(Measurement, OlderPrettyPrintedFilesStillLoad) {
    // What TileScope wrote before measurements were one point a line: indented, a sample a line.
    const Json doc = Json::parse(to_json(sample()));
    const std::string pretty = doc.dump(1) + "\n";
    ASSERT_NE(pretty.find("\n   \"samples_ms\": [\n    1.9302,\n"), std::string::npos) << pretty;
    const Measurement back = parsed(pretty);
    ASSERT_EQ(back.points.size(), 3u);
    EXPECT_EQ(back.points[0].samples_ms, sample().points[0].samples_ms);
    EXPECT_EQ(to_json(back), to_json(sample()));
}

TEST(Measurement, RejectsOtherFormatsAndVersions) {
    Json doc = Json::parse(to_json(sample()));
    doc["format"] = "something-else";
    EXPECT_NE(error_of(doc.dump()).find("\"format\" is \"something-else\""), std::string::npos);
    doc = Json::parse(to_json(sample()));
    doc["format_version"] = kFormatVersion + 1;
    EXPECT_NE(error_of(doc.dump()).find("format_version 2; this TileScope reads 1"), std::string::npos);
    EXPECT_NE(error_of("[1, 2, 3]").find("expected an object"), std::string::npos);
}

// RFC 4180 fields of one line, as pandas' reader splits them.
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        out.push_back(text.substr(start, end - start));
    return out;
}

TEST(MeasurementCsv, IsAFlatTableWithTheJsonsColumns) {
    const Measurement r = sample();
    const std::vector<std::string> rows = lines(to_csv(r));
    ASSERT_EQ(rows.size(), 1 + r.points.size());
    const std::vector<std::string> header = csv_fields(rows[0]);
    // The JSON point's keys, in order, without the one list column.
    std::vector<std::string> keys;
    const Json point = Json::parse(to_json(r))["points"][0];
    for (auto it = point.begin(); it != point.end(); ++it)
        if (it.key() != "samples_ms") keys.push_back(it.key());
    // ran_candidate, written only where a tuned rung ran, has its column after tile either way.
    ASSERT_FALSE(point.contains("ran_candidate"));
    keys.insert(std::find(keys.begin(), keys.end(), "tile") + 1, "ran_candidate");
    // So do the clock's three, written only where it was read, at the end.
    ASSERT_FALSE(point.contains("sm_clock_mhz"));
    for (const char* clock_key : {"sm_clock_mhz", "power_w", "clock_limits"}) keys.push_back(clock_key);
    // And the shared GPU's four, written only where known, after them.
    ASSERT_FALSE(point.contains("gpu_wait_s"));
    for (const char* sharing_key : {"gpu_host", "gpu_wait_s", "gpu_shared", "gpu_shared_note"}) keys.push_back(sharing_key);
    // And the energy's five, written only where measured, last.
    ASSERT_FALSE(point.contains("joules_per_matmul"));
    for (const char* energy_key : {"joules_per_matmul", "tflop_per_j", "avg_watts", "energy_sm_clock_mhz", "energy_note"})
        keys.push_back(energy_key);
    // And FP8's four, written only for fp8 points.
    ASSERT_FALSE(point.contains("fp8_scaling"));
    for (const char* fp8_key : {"fp8_scaling", "quantize_ms", "error_vs_fp64_max", "error_vs_fp64_rms"})
        keys.push_back(fp8_key);
    EXPECT_EQ(header, keys);
    ASSERT_EQ(header.size(), csv_columns().size());
    for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_EQ(csv_fields(rows[i]).size(), header.size()) << rows[i];
}

TEST(MeasurementCsv, CellsHoldValuesNullsAndQuotedText) {
    const std::vector<std::string> rows = lines(to_csv(sample()));
    const std::vector<std::string> header = csv_fields(rows[0]);
    auto cell = [&](std::size_t row, const std::string& column) {
        const auto at = std::find(header.begin(), header.end(), column);
        EXPECT_NE(at, header.end()) << column;
        return csv_fields(rows[row])[static_cast<std::size_t>(at - header.begin())];
    };
    EXPECT_EQ(cell(1, "median_ms"), "1.9306");
    EXPECT_EQ(cell(1, "samples"), "4");
    EXPECT_EQ(cell(1, "ok"), "true");
    EXPECT_EQ(cell(1, "tile"), "32");
    EXPECT_EQ(cell(1, "block_x"), "");                 // null
    EXPECT_EQ(cell(2, "model_bandwidth_GBps"), "");    // cuBLAS: not modelled
    EXPECT_EQ(cell(3, "median_ms"), "");               // failed
    EXPECT_EQ(cell(3, "error"), sample().points[2].error);  // commas and quotes survive
    EXPECT_EQ(cell(1, "config"), "tiled T=32");
}

TEST(MeasurementCsv, ColumnNamesCarryUnits) {
    const std::vector<std::string_view>& columns = csv_columns();
    for (std::string_view name : {"median_ms", "p20_ms", "p80_ms", "mean_ms", "min_ms", "max_ms", "noise_pct",
                                  "gflops", "model_traffic_bytes", "model_bandwidth_GBps", "end_to_end_ms",
                                  "cpu_triple_loop_ms"})
        EXPECT_NE(std::find(columns.begin(), columns.end(), name), columns.end()) << name;
    EXPECT_EQ(std::find(columns.begin(), columns.end(), "samples_ms"), columns.end()) << "the list is JSON only";
}

// Which candidate a tuned rung ran survives JSON and CSV; a CSV written before the column
// existed still reads (the candidate then unknown).
TEST(MeasurementCsv, RanCandidateIsKeptWhereKnown) {
    Measurement r = sample();
    r.points[0].ran_candidate = 3;
    const auto json = parse_json(to_json(r), "run.json");
    ASSERT_TRUE(std::holds_alternative<Measurement>(json)) << std::get<std::string>(json);
    EXPECT_EQ(std::get<Measurement>(json).points[0].ran_candidate, 3);
    EXPECT_EQ(std::get<Measurement>(json).points[1].ran_candidate, std::nullopt);
    const std::string csv = to_csv(r);
    const auto back = parse_csv(csv, "run.csv");
    ASSERT_TRUE(std::holds_alternative<Measurement>(back)) << std::get<std::string>(back);
    EXPECT_EQ(std::get<Measurement>(back).points[0].ran_candidate, 3);
    EXPECT_EQ(std::get<Measurement>(back).points[1].ran_candidate, std::nullopt);
    // The same CSV without the column, as bench wrote it until 2026-11-26.
    std::vector<std::string> rows = lines(csv);
    const std::vector<std::string> header = csv_fields(rows[0]);
    const auto column = static_cast<std::size_t>(std::find(header.begin(), header.end(), "ran_candidate") - header.begin());
    std::string old;
    for (const std::string& row : lines(to_csv(sample()))) {
        std::vector<std::string> cells = csv_fields(row);
        if (cells.size() > column) cells.erase(cells.begin() + static_cast<std::ptrdiff_t>(column));
        std::string line;
        for (const std::string& c : cells) line += (line.empty() ? "" : ",") + (c.find_first_of(",\"") == std::string::npos ? c : "\"" + c + "\"");
        old += line + "\n";
    }
    const auto older = parse_csv(old, "old.csv");
    ASSERT_TRUE(std::holds_alternative<Measurement>(older)) << std::get<std::string>(older);
    EXPECT_EQ(std::get<Measurement>(older).points.size(), r.points.size());
    EXPECT_EQ(std::get<Measurement>(older).points[0].ran_candidate, std::nullopt);
}

// The clock while sampling: kept in JSON and CSV where it was read, null and absent where not, and
// a CSV from before TileScope read it still loads.
TEST(MeasurementCsv, TheClockIsKeptWhereItWasRead) {
    Measurement r = sample();
    r.points[0].sm_clock_mhz = 1690;
    r.points[0].power_w = 655.5;
    r.points[0].clock_limits = "the power cap";
    r.meta.timing.settle_s = 2.0;
    const auto json = parse_json(to_json(r), "run.json");
    ASSERT_TRUE(std::holds_alternative<Measurement>(json)) << std::get<std::string>(json);
    const Measurement& from_json = std::get<Measurement>(json);
    EXPECT_EQ(from_json.points[0].sm_clock_mhz, 1690);
    EXPECT_EQ(from_json.points[0].power_w, 655.5);
    EXPECT_EQ(from_json.points[0].clock_limits, "the power cap");
    EXPECT_EQ(from_json.points[1].sm_clock_mhz, std::nullopt);
    EXPECT_EQ(from_json.points[1].clock_limits, std::nullopt);
    EXPECT_EQ(from_json.meta.timing.settle_s, 2.0);
    EXPECT_EQ(to_json(sample()).find("sm_clock_mhz"), std::string::npos) << "no reading, no key";
    const auto back = parse_csv(to_csv(r), "run.csv");
    ASSERT_TRUE(std::holds_alternative<Measurement>(back)) << std::get<std::string>(back);
    EXPECT_EQ(std::get<Measurement>(back).points[0].sm_clock_mhz, 1690);
    EXPECT_EQ(std::get<Measurement>(back).points[0].power_w, 655.5);
    EXPECT_EQ(std::get<Measurement>(back).points[0].clock_limits, "the power cap");
    EXPECT_EQ(std::get<Measurement>(back).points[1].sm_clock_mhz, std::nullopt);
    EXPECT_EQ(std::get<Measurement>(back).points[1].clock_limits, std::nullopt);
    // Without the three columns (nor the shared GPU's four after them), as bench wrote CSVs before it read the clock.
    std::string old;
    for (const std::string& row : lines(to_csv(sample()))) {
        std::vector<std::string> cells = csv_fields(row);
        cells.resize(cells.size() - 16);
        std::string line;
        for (const std::string& c : cells) line += (line.empty() ? "" : ",") + (c.find_first_of(",\"") == std::string::npos ? c : "\"" + c + "\"");
        old += line + "\n";
    }
    const std::vector<std::string> header = csv_fields(lines(to_csv(sample()))[0]);
    ASSERT_EQ(header[header.size() - 14], "clock_limits")
        << "the clock's columns come last but the shared GPU's four, the energy's five and FP8's four";
    const auto older = parse_csv(old, "old.csv");
    ASSERT_TRUE(std::holds_alternative<Measurement>(older)) << std::get<std::string>(older);
    EXPECT_EQ(std::get<Measurement>(older).points[0].sm_clock_mhz, std::nullopt);
}

TEST(MeasurementCsv, TheEnergyIsKeptWhereItWasMeasured) {
    Measurement r = sample();
    r.points[0].joules_per_matmul = 0.6123;
    r.points[0].tflop_per_j = 0.2245;
    r.points[0].avg_watts = 612.5;
    r.points[0].energy_sm_clock_mhz = 1755;
    r.points[0].energy_note = "500 launches back to back in 0.50 s, \"quoted\", with a comma";
    EXPECT_EQ(to_json(sample()).find("joules_per_matmul"), std::string::npos) << "not measured, no key";
    const auto json = parse_json(to_json(r), "run.json");
    ASSERT_TRUE(std::holds_alternative<Measurement>(json)) << std::get<std::string>(json);
    const auto csv = parse_csv(to_csv(r), "run.csv");
    ASSERT_TRUE(std::holds_alternative<Measurement>(csv)) << std::get<std::string>(csv);
    for (const Measurement* back : {&std::get<Measurement>(json), &std::get<Measurement>(csv)}) {
        EXPECT_EQ(back->points[0].joules_per_matmul, 0.6123);
        EXPECT_EQ(back->points[0].tflop_per_j, 0.2245);
        EXPECT_EQ(back->points[0].avg_watts, 612.5);
        EXPECT_EQ(back->points[0].energy_sm_clock_mhz, 1755);
        EXPECT_EQ(back->points[0].energy_note, r.points[0].energy_note);
        EXPECT_EQ(back->points[1].joules_per_matmul, std::nullopt);
        EXPECT_EQ(back->points[1].avg_watts, std::nullopt);
    }
}

TEST(MeasurementCsv, AnFp8PointKeepsItsScalingQuantiseTimeAndError) {
    Measurement r = sample();
    r.points[0].dtype = "fp8";
    r.points[0].fp8_scaling = "block";
    r.points[0].quantize_ms = 0.0421;
    r.points[0].error_vs_fp64_max = 0.0625;
    r.points[0].error_vs_fp64_rms = 0.0213;
    const auto json = parse_json(to_json(r), "run.json");
    ASSERT_TRUE(std::holds_alternative<Measurement>(json)) << std::get<std::string>(json);
    const auto csv = parse_csv(to_csv(r), "run.csv");
    ASSERT_TRUE(std::holds_alternative<Measurement>(csv)) << std::get<std::string>(csv);
    for (const Measurement* back : {&std::get<Measurement>(json), &std::get<Measurement>(csv)}) {
        EXPECT_EQ(back->points[0].fp8_scaling, "block");
        EXPECT_EQ(back->points[0].quantize_ms, 0.0421);
        EXPECT_EQ(back->points[0].error_vs_fp64_max, 0.0625);
        EXPECT_EQ(back->points[0].error_vs_fp64_rms, 0.0213);
        // A CSV's empty text cell reads back as empty text: nothing either way.
        EXPECT_EQ(back->points[1].fp8_scaling.value_or(""), "");
        EXPECT_EQ(back->points[1].quantize_ms, std::nullopt);
    }
}

// A BF16 point keeps its error against FP64 in JSON and CSV alike; a point without it writes no key.
TEST(MeasurementCsv, ABf16PointKeepsItsErrorAgainstFp64) {
    Measurement r = sample();
    r.points[0].dtype = "bf16";
    r.points[0].error_vs_fp64_max = 0.0039;
    r.points[0].error_vs_fp64_rms = 0.0011;
    const std::string json_text = to_json(r);
    EXPECT_EQ(json_text.find("\"error_vs_fp64_max\""), json_text.rfind("\"error_vs_fp64_max\""))
        << "only the point that measured it writes the key";
    const auto json = parse_json(json_text, "run.json");
    ASSERT_TRUE(std::holds_alternative<Measurement>(json)) << std::get<std::string>(json);
    const auto csv = parse_csv(to_csv(r), "run.csv");
    ASSERT_TRUE(std::holds_alternative<Measurement>(csv)) << std::get<std::string>(csv);
    for (const Measurement* back : {&std::get<Measurement>(json), &std::get<Measurement>(csv)}) {
        EXPECT_EQ(back->points[0].error_vs_fp64_max, 0.0039);
        EXPECT_EQ(back->points[0].error_vs_fp64_rms, 0.0011);
        EXPECT_FALSE(back->points[0].fp8_scaling.has_value() && !back->points[0].fp8_scaling->empty());
        EXPECT_EQ(back->points[1].error_vs_fp64_max, std::nullopt);
    }
}

// What `tilescope bench --csv` writes, --load reads back: every point, every column.
TEST(MeasurementCsv, ReadsBackWhatItWrote) {
    const Measurement original = sample();
    const std::string csv = to_csv(original);
    auto result = parse_csv(csv, "run.csv");
    ASSERT_TRUE(std::holds_alternative<Measurement>(result)) << std::get<std::string>(result);
    const Measurement& back = std::get<Measurement>(result);
    EXPECT_TRUE(back.from_csv);
    EXPECT_EQ(to_csv(back), csv);  // the same table, quoted text and nulls included
    ASSERT_EQ(back.points.size(), original.points.size());
    EXPECT_TRUE(back.points[0].samples_ms.empty()) << "a CSV keeps only the count";
    EXPECT_EQ(sample_count(back.points[0]), static_cast<std::int64_t>(original.points[0].samples_ms.size()));
    EXPECT_EQ(back.points[0].median_ms, original.points[0].median_ms);
    EXPECT_EQ(back.points[0].tile, 32);
    EXPECT_FALSE(back.points[0].block_x.has_value());
    EXPECT_FALSE(back.points[2].ok);
    EXPECT_EQ(back.points[2].error, original.points[2].error);
}

TEST(MeasurementCsv, LoadTellsJsonCsvAndPlotExportsApart) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    const std::filesystem::path csv = dir / "tilescope_record_test.csv", json = dir / "tilescope_record_test.txt",
                                plot = dir / "tilescope_plot_test.csv";
    ASSERT_EQ(save_text(csv, to_csv(sample())), std::nullopt);
    ASSERT_EQ(save_text(json, to_json(sample())), std::nullopt);  // by content, not by name
    ASSERT_EQ(save_text(plot, "series,N,latency (ms)\ntiled T=32,1024,0.2\n"), std::nullopt);
    const auto from_csv = load(csv), from_json = load(json), from_plot = load(plot);
    ASSERT_TRUE(std::holds_alternative<Measurement>(from_csv)) << std::get<std::string>(from_csv);
    ASSERT_TRUE(std::holds_alternative<Measurement>(from_json)) << std::get<std::string>(from_json);
    EXPECT_EQ(std::get<Measurement>(from_csv).points.size(), 3u);
    EXPECT_FALSE(std::get<Measurement>(from_json).from_csv);
    ASSERT_TRUE(std::holds_alternative<std::string>(from_plot));
    EXPECT_NE(std::get<std::string>(from_plot).find("a plot exported with Save CSV"), std::string::npos);
    for (const auto& file : {csv, json, plot}) std::filesystem::remove(file);
}

TEST(MeasurementCsv, BrokenCsvSaysWhereAndWhat) {
    const std::string good = to_csv(sample());
    auto error = [](const std::string& text) { return testing_support::message_of(parse_csv(text, "run.csv")); };
    EXPECT_EQ(error(""), "run.csv: empty: no header line");
    EXPECT_NE(error("index,kernel\n0,tiled\n").find("run.csv:1: no column \"config\""), std::string::npos);
    // A row cut short, a number that is not one, a quote never closed: each names its line.
    const std::string header = good.substr(0, good.find('\n') + 1);
    EXPECT_NE(error(header + "0,tiled\n").find("run.csv:2: 2 cells, but the header names"), std::string::npos);
    std::string wrong = good;
    wrong.replace(wrong.find("1.9306"), 6, "fast!!");
    EXPECT_NE(error(wrong).find("run.csv:2: column median_ms: expected a number"), std::string::npos) << error(wrong);
    EXPECT_NE(error(header + "0,\"tiled\n").find("a quote is never closed"), std::string::npos);
}

}  // namespace
}  // namespace ts::record
