// run_window.hpp — the window: opened with the checked flags (gui_options.hpp) and the
// settings file, driven by a person or by a scripted mode (automation.hpp) until it ends.
#pragma once

#include "cli/setup_options.hpp"
#include "gui_options.hpp"

namespace ts::app {

// Opens the window on `setup`, runs it, and returns the exit status: 1 when no window could
// be opened, 2 when a flag does not fit the window's state, else the automation's.
int run_window(const GuiOptions& options, const cli::Setup& setup);

}  // namespace ts::app
