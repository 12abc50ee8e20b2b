// The measurements committed under assets/measurements/ are what a machine without a GPU
// shows: each must load, name its GPU and date, and hold real, checked timings. They are
// kept compact (`tilescope-cli compact`: one point a line, sample lists dropped, counts
// kept), so that assets/ stays small; files written before that, pretty-printed with every
// sample, must still load.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "record/measurement_file.hpp"

namespace {

std::vector<std::filesystem::path> committed_measurements() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(TILESCOPE_MEASUREMENTS_DIR))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    return files;
}

std::string text_of(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// What the lab draws of a point: its name and problem, and the timing of a measured one.
void expect_what_the_lab_needs(const ts::record::Point& point) {
    SCOPED_TRACE(point.config + " " + std::to_string(point.m));
    EXPECT_FALSE(point.kernel.empty());
    EXPECT_FALSE(point.config.empty());
    EXPECT_GT(point.m, 0);
    EXPECT_GT(point.n, 0);
    EXPECT_GT(point.k, 0);
    EXPECT_GE(point.batch, 1);
    EXPECT_FALSE(point.dtype.empty());
    if (!point.ok) return;
    EXPECT_GT(point.median_ms, 0.0);
    EXPECT_GE(ts::record::sample_count(point), 10);
    EXPECT_GT(point.p20_ms, 0.0);
    EXPECT_LE(point.p20_ms, point.median_ms);
    EXPECT_GE(point.p80_ms, point.median_ms);
    EXPECT_GE(point.noise_pct, 0.0);
    EXPECT_GT(point.gflops, 0.0);
    EXPECT_FALSE(point.stop_reason.empty());
    if (point.checked) {
        EXPECT_TRUE(point.check_passed) << point.check_summary;
    }
}

TEST(CommittedMeasurements, EveryOneLoadsWithItsGpuAndDate) {
    const auto files = committed_measurements();
    ASSERT_FALSE(files.empty()) << "no measurement in " << TILESCOPE_MEASUREMENTS_DIR;
    for (const auto& file : files) {
        SCOPED_TRACE(file.string());
        const auto loaded = ts::record::load(file);
        ASSERT_TRUE(std::holds_alternative<ts::record::Measurement>(loaded)) << std::get<std::string>(loaded);
        const auto& measurement = std::get<ts::record::Measurement>(loaded);
        EXPECT_FALSE(measurement.from_csv);
        EXPECT_FALSE(measurement.meta.device.name.empty());
        EXPECT_GT(measurement.meta.device.sm_count, 0);
        EXPECT_EQ(measurement.meta.date_utc.size(), std::string("2026-11-21T06:11:52Z").size());
        // The file is named by GPU and date, so a reader can tell measurements apart.
        EXPECT_NE(file.filename().string().find(measurement.meta.date_utc.substr(0, 10)), std::string::npos);
        ASSERT_GE(measurement.points.size(), 10u);
        for (const auto& point : measurement.points) expect_what_the_lab_needs(point);
    }
}

TEST(CommittedMeasurements, AreCompactOnePointALine) {
    for (const auto& file : committed_measurements()) {
        SCOPED_TRACE(file.string());
        const std::string text = text_of(file);
        EXPECT_EQ(text.find("\"samples_ms\""), std::string::npos) << "rewrite it with tilescope-cli compact";
        const auto loaded = ts::record::load(file);
        ASSERT_TRUE(std::holds_alternative<ts::record::Measurement>(loaded));
        const auto& measurement = std::get<ts::record::Measurement>(loaded);
        // Exactly what `compact` writes: the metadata line, a line per point, the closing line.
        EXPECT_TRUE(text == ts::record::to_json(measurement, ts::record::SampleList::CountOnly))
            << "not as `tilescope-cli compact` writes it";
        EXPECT_EQ(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), measurement.points.size() + 2);
    }
}

TEST(CommittedMeasurements, AssetsStayUnderSixMegabytes) {
    std::uintmax_t total = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(TILESCOPE_ASSETS_DIR))
        if (entry.is_regular_file()) total += entry.file_size();
    EXPECT_LE(total, std::uintmax_t{6} * 1000 * 1000) << "assets/ holds " << total << " bytes";
}

TEST(CommittedMeasurements, AnOlderPrettyFileWithEverySampleStillLoads) {
    // Three points cut, byte for byte, from a measurement an older TileScope wrote: indented, one
    // sample a line.
    const std::filesystem::path file = TILESCOPE_RECORD_TEST_DATA "/old-pretty-nvidia-h200-2026-11-21.json";
    const std::string text = text_of(file);
    ASSERT_NE(text.find("\n   \"samples_ms\": [\n"), std::string::npos) << "not the old layout any more";
    const auto loaded = ts::record::load(file);
    ASSERT_TRUE(std::holds_alternative<ts::record::Measurement>(loaded)) << std::get<std::string>(loaded);
    const auto& measurement = std::get<ts::record::Measurement>(loaded);
    EXPECT_EQ(measurement.meta.device.name, "NVIDIA H200");
    EXPECT_EQ(measurement.meta.date_utc.substr(0, 10), "2026-11-21");
    ASSERT_EQ(measurement.points.size(), 3u);
    for (const auto& point : measurement.points) {
        expect_what_the_lab_needs(point);
        EXPECT_EQ(point.samples_ms.size(), 10u);
    }
    EXPECT_DOUBLE_EQ(measurement.points[0].median_ms, 0.356816);
    // Compacted, it keeps what the lab shows and loses only the lists.
    const auto compact = ts::record::parse_json(ts::record::to_json(measurement, ts::record::SampleList::CountOnly), "c");
    ASSERT_TRUE(std::holds_alternative<ts::record::Measurement>(compact)) << std::get<std::string>(compact);
    const auto& back = std::get<ts::record::Measurement>(compact);
    ASSERT_EQ(back.points.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_TRUE(back.points[i].samples_ms.empty());
        EXPECT_EQ(ts::record::sample_count(back.points[i]), 10);
        EXPECT_EQ(back.points[i].median_ms, measurement.points[i].median_ms);
        EXPECT_EQ(back.points[i].p20_ms, measurement.points[i].p20_ms);
        EXPECT_EQ(back.points[i].p80_ms, measurement.points[i].p80_ms);
        EXPECT_EQ(back.points[i].noise_pct, measurement.points[i].noise_pct);
    }
}

}  // namespace
