// The measurement the lab shows is read off the UI thread: while it is being read the lab's
// panel says so (and nothing blocks), once it is in the lab names it, and a file that cannot
// be read is said to be so. A named pipe stands in for a slow disk, so "pending" is certain.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "imgui_harness.hpp"
#include "views/lab/lab_state.hpp"
#include "views/lab/lab_view.hpp"
#include "views/window/app_state.hpp"

using namespace ts::views;
using ts::test::ImGuiHarness;

namespace {

std::string draw_lab(ImGuiHarness& ui, AppState& state) {
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_lab_view(state.lab, column_edits(state), state, 0.0f); });
    return text;
}

// Polls as the frame loop does, a frame every millisecond, for at most 10 s.
void poll_until_loaded(LabState& lab) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (measurement_loading(lab.measured) && std::chrono::steady_clock::now() < give_up) {
        poll_measurement_load(lab.measured);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

std::string text_of(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::filesystem::path temp_file(const std::string& name) {
    return std::filesystem::temp_directory_path() / ("tilescope_" + std::to_string(getpid()) + "_" + name);
}

TEST(MeasurementLoad, PendingUntilTheFileIsInThenShown) {
    const std::filesystem::path pipe = temp_file("measurement.json");
    ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
    const auto committed = committed_measurements();
    ASSERT_FALSE(committed.empty());
    const std::string text = text_of(committed.back());

    ImGuiHarness ui;
    AppState state;
    state.view = ViewId::Latency;
    start_loading_measurement(state.lab.measured, pipe);
    // Nothing has been written into the pipe: the reader waits, the frames do not.
    const auto before = std::chrono::steady_clock::now();
    for (int frame = 0; frame < 5; ++frame) poll_measurement_load(state.lab.measured);
    EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::milliseconds(100));
    EXPECT_TRUE(measurement_loading(state.lab.measured));
    EXPECT_FALSE(state.lab.measured.measurement);
    const std::string pending = draw_lab(ui, state);
    EXPECT_NE(pending.find("Loading measurements…"), std::string::npos) << pending;
    EXPECT_EQ(pending.find("No measurement loaded"), std::string::npos) << pending;

    {
        std::ofstream writer(pipe, std::ios::binary);  // opens once the reader has
        writer << text;
    }
    poll_until_loaded(state.lab);
    std::filesystem::remove(pipe);
    ASSERT_FALSE(measurement_loading(state.lab.measured));
    ASSERT_TRUE(state.lab.measured.measurement) << state.lab.measured.load_error;
    EXPECT_TRUE(state.lab.measured.load_error.empty());
    EXPECT_FALSE(state.lab.measured.load_flag_failed);
    EXPECT_GE(state.lab.measured.measurement->points.size(), 10u);
    EXPECT_EQ(state.lab.measured.measurement_label.rfind("measured on NVIDIA H", 0), 0u) << state.lab.measured.measurement_label;
    const std::string loaded = draw_lab(ui, state);
    EXPECT_EQ(loaded.find("Loading measurements…"), std::string::npos) << loaded;
    EXPECT_NE(loaded.find(state.lab.measured.measurement_label), std::string::npos) << loaded;
}

TEST(MeasurementLoad, ABrokenFileSaysWhyInThePanel) {
    const std::filesystem::path file = temp_file("broken.json");
    std::ofstream(file) << "{\"format\": \"tilescope-bench\",\n oops";

    ImGuiHarness ui;
    AppState state;
    state.view = ViewId::Latency;
    start_loading_measurement(state.lab.measured, file, /*from_flag=*/true);
    poll_until_loaded(state.lab);
    std::filesystem::remove(file);
    EXPECT_FALSE(state.lab.measured.measurement);
    EXPECT_EQ(state.lab.measured.load_error.rfind(file.string() + ":2:", 0), 0u) << state.lab.measured.load_error;
    EXPECT_NE(state.lab.measured.load_error.find("not valid JSON"), std::string::npos) << state.lab.measured.load_error;
    // Named by --load: the program ends with 2 (the automation's part).
    EXPECT_TRUE(state.lab.measured.load_flag_failed);
    const std::string text = draw_lab(ui, state);
    EXPECT_NE(text.find("Cannot load: " + file.string()), std::string::npos) << text;
    EXPECT_EQ(text.find("Loading measurements…"), std::string::npos) << text;
}

TEST(MeasurementLoad, AMissingCommittedFileIsShownButEndsNothing) {
    AppState state;
    start_loading_measurement(state.lab.measured, "/nonexistent/measurements/gpu-2026-01-01.json");
    wait_for_measurement(state.lab.measured);
    EXPECT_FALSE(measurement_loading(state.lab.measured));
    EXPECT_NE(state.lab.measured.load_error.find("cannot open"), std::string::npos) << state.lab.measured.load_error;
    EXPECT_FALSE(state.lab.measured.load_flag_failed);
}

}  // namespace
