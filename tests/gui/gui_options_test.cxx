// The window's flags without a window (app/gui_options.hpp): each scripted mode is the
// automation's, the checks refuse what does not fit before a window would open, and the
// flags that follow from others (an animation's size, the settings file) are filled in.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include <string>
#include <variant>
#include <vector>

#include "automation.hpp"
#include "gpu/supervisor.hpp"
#include "gpu/worker_target.hpp"
#include "gui_options.hpp"

namespace ts::app {
namespace {

// The window's command line as main() declares it; `checked` holds check_gui_options()'s answer.
struct Parsed {
    CLI::App app{"test", "tilescope"};
    cli::SetupOptions setup_options;
    GuiOptions gui;
    std::variant<cli::Setup, int> checked = 0;

    explicit Parsed(std::vector<std::string> args) {
        setup_options.m = "12";
        setup_options.n = "16";
        setup_options.k = "8";
        setup_options.tile = "4";
        cli::add_setup_options(app, setup_options);
        add_gui_options(app, gui);
        args.insert(args.begin(), "tilescope");
        std::vector<char*> argv;
        for (std::string& arg : args) argv.push_back(arg.data());
        app.parse(static_cast<int>(argv.size()), argv.data());
        checked = check_gui_options(app, gui, setup_options);
    }
    bool ok() const { return std::holds_alternative<cli::Setup>(checked); }
    int exit_code() const { return ok() ? -1 : std::get<int>(checked); }
    AutomationMode mode() const { return Automation(automation_options(gui)).mode(); }
    bool vsync() const { return Automation(automation_options(gui)).vsync(); }
};

TEST(GuiOptions, EachScriptedFlagIsAnAutomationMode) {
    EXPECT_EQ(Parsed({}).mode(), AutomationMode::Interactive);
    EXPECT_EQ(Parsed({"--run"}).mode(), AutomationMode::Interactive);
    EXPECT_EQ(Parsed({"--keys", "F1,ctrl+2"}).mode(), AutomationMode::Keys);
    EXPECT_EQ(Parsed({"--screenshot", "out.png", "--keys", "F1"}).mode(), AutomationMode::Screenshot);
    EXPECT_EQ(Parsed({"--frames", "5"}).mode(), AutomationMode::Screenshot);
    EXPECT_EQ(Parsed({"--view", "theatre", "--export-animation", "out.gif", "--screenshot", "a.png"}).mode(),
              AutomationMode::Export);
    EXPECT_EQ(Parsed({"--lab-benchmark", "5", "--screenshot", "a.png"}).mode(), AutomationMode::LabBenchmark);
    EXPECT_EQ(Parsed({"--soak", "3"}).mode(), AutomationMode::Soak);
    EXPECT_EQ(Parsed({"--frame-time", "20", "--soak", "3", "--screenshot", "a.png"}).mode(),
              AutomationMode::FrameTime);
}

TEST(GuiOptions, TimedRunsDrawWithoutVsync) {
    EXPECT_TRUE(Parsed({}).vsync());
    EXPECT_TRUE(Parsed({"--screenshot", "out.png"}).vsync());
    EXPECT_FALSE(Parsed({"--frame-time", "20"}).vsync());
    EXPECT_FALSE(Parsed({"--lab-benchmark", "5"}).vsync());
}

TEST(GuiOptions, FlagsThatDoNotFitExitTwoBeforeAWindowOpens) {
    EXPECT_TRUE(Parsed({"--select", "11,15"}).ok());
    EXPECT_EQ(Parsed({"--select", "12,0"}).exit_code(), 2);   // C has rows 0 to 11
    EXPECT_EQ(Parsed({"--center", "0,16"}).exit_code(), 2);
    EXPECT_EQ(Parsed({"--lesson-walk", "walk"}).exit_code(), 2);  // no lesson to walk
    EXPECT_EQ(Parsed({"--export-animation", "out.gif"}).exit_code(), 2);  // the stage has no steps
    EXPECT_EQ(Parsed({"--view", "theatre", "--export-animation", "out.bmp"}).exit_code(), 2);
    EXPECT_EQ(Parsed({"--keys", "ctrl+nothing"}).exit_code(), 2);
    EXPECT_EQ(Parsed({"--experiment", "no-such-experiment"}).exit_code(), 2);
    EXPECT_TRUE(Parsed({"--experiment", "accumulator"}).ok());  // the accumulator measurement
    EXPECT_TRUE(Parsed({"--view", "ladder", "--bars", "energy"}).ok());
    EXPECT_TRUE(Parsed({"--view", "ladder", "--ladder-page", "errors"}).ok());
    EXPECT_EQ(Parsed({"--m", "0"}).exit_code(), 2);
}

TEST(GuiOptions, WhatFollowsFromTheFlagsIsFilledIn) {
    const Parsed exported({"--view", "theatre", "--export-animation", "out.gif", "--width", "640"});
    ASSERT_TRUE(exported.ok());
    EXPECT_EQ(exported.gui.width, 640);
    EXPECT_EQ(exported.gui.height, 720);  // an animation is 1280 × 720 unless told otherwise
    EXPECT_EQ(exported.gui.presentation.height, 720);
    const AutomationOptions automation = automation_options(exported.gui);
    ASSERT_TRUE(automation.export_subject.has_value());
    EXPECT_EQ(*automation.export_subject, views::ExportSubject::Theatre);
    EXPECT_EQ(automation.export_choice.width, 640);
    EXPECT_DOUBLE_EQ(automation.export_choice.seconds_per_frame, 0.5);

    // Pictures and timings leave this machine's settings alone, unless --settings names a file.
    EXPECT_TRUE(Parsed({"--screenshot", "out.png"}).gui.settings.empty());
    EXPECT_TRUE(Parsed({"--no-settings"}).gui.settings.empty());
    EXPECT_EQ(Parsed({"--screenshot", "out.png", "--settings", "s.ini"}).gui.settings, "s.ini");

    const Parsed keys({"--keys", "F11,ctrl+2", "--presenter", "--palette", "colour-blind"});
    ASSERT_TRUE(keys.ok());
    EXPECT_EQ(keys.gui.keys.size(), 2u);
    EXPECT_TRUE(keys.gui.presentation.presenter);
    EXPECT_TRUE(keys.gui.presentation.palette.has_value());
}

// --gpu and --worker-command say where the GPU worker runs; with neither it is this program, as
// before. A refused value exits 2 before a window (or a worker) starts.
TEST(GuiOptions, GpuSaysWhereTheWorkerRuns) {
    const Parsed plain({});
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(plain.gui.worker_target, gpu::WorkerTarget{});
    EXPECT_EQ(gpu::worker_argv(plain.gui.worker_target), gpu::this_program_as_worker());

    const Parsed ssh({"--gpu", "ssh://ana@gpu1:2222"});
    ASSERT_TRUE(ssh.ok());
    EXPECT_EQ(gpu::worker_argv(ssh.gui.worker_target),
              (std::vector<std::string>{"ssh", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=10", "-o",
                                        "ServerAliveCountMax=3", "-p", "2222", "-l", "ana", "--", "gpu1", "tilescope",
                                        "worker"}));
    const Parsed slurm({"--gpu", "slurm:gpu"});
    ASSERT_TRUE(slurm.ok());
    EXPECT_EQ(gpu::worker_argv(slurm.gui.worker_target),
              (std::vector<std::string>{"srun", "--gres=gpu:1", "--unbuffered", "--partition=gpu", "tilescope", "worker"}));
    const Parsed command({"--worker-command", "/opt/bin/launch", "gpu1"});
    ASSERT_TRUE(command.ok());
    EXPECT_EQ(gpu::worker_argv(command.gui.worker_target), (std::vector<std::string>{"/opt/bin/launch", "gpu1"}));

    EXPECT_EQ(Parsed({"--gpu", "ssh://-oProxyCommand=x"}).exit_code(), 2);
    EXPECT_EQ(Parsed({"--gpu", "ssh://host;id"}).exit_code(), 2);
    EXPECT_EQ(Parsed({"--gpu", "slurm:-p x"}).exit_code(), 2);
    EXPECT_EQ(Parsed({"--gpu", "slurm", "--worker-command", "srun"}).exit_code(), 2);
}

// --worker-command takes every argument after it, options included, off the command line.
TEST(GuiOptions, WorkerCommandTakesEveryArgumentAfterIt) {
    std::vector<std::string> words{"tilescope", "--view", "latency", "--worker-command", "ssh", "-J", "jump",
                                   "--", "gpu1", "tilescope", "worker"};
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    int argc = static_cast<int>(argv.size());
    GuiOptions gui;
    take_worker_command(argc, argv.data(), gui);
    EXPECT_EQ(argc, 3);
    EXPECT_TRUE(gui.worker_command_given);
    EXPECT_EQ(gui.worker_command, (std::vector<std::string>{"ssh", "-J", "jump", "--", "gpu1", "tilescope", "worker"}));

    GuiOptions none;
    int none_argc = 3;
    take_worker_command(none_argc, argv.data(), none);
    EXPECT_EQ(none_argc, 3);
    EXPECT_FALSE(none.worker_command_given);
}

}  // namespace
}  // namespace ts::app
