// gpu_skip.hpp — gpu tests skip, with the reason, where no CUDA device is usable.
#pragma once

#include <gtest/gtest.h>

#include "gpu/runner.hpp"
#include "support/run_command.hpp"

namespace ts::testing_support {

// Probed once per test binary: the first CUDA call is slow.
inline const gpu::DeviceInfo& device() {
    static const gpu::DeviceInfo info = gpu::probe_device();
    return info;
}

#ifdef TILESCOPE_CLI_PATH
// Where no GPU is usable: tilescope-cli with `arguments` exits 2, and what it prints holds
// `says` ("tilescope record: no usable GPU: ") and the probe's reason. Skipped where a GPU is
// usable: the gpu tests run the command for real.
inline void expect_refused_without_gpu(const std::string& arguments, const std::string& says) {
    const gpu::DeviceInfo& gpu = device();
    if (gpu.usable) GTEST_SKIP() << "a GPU is usable here (" << gpu.limits.name << "); see the gpu tests";
    const CommandOutcome outcome = run_cli(arguments);
    EXPECT_EQ(outcome.exit_code, 2) << outcome.output;
    EXPECT_NE(outcome.output.find(says), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find(gpu.why_not), std::string::npos) << outcome.output;
}
#endif

}  // namespace ts::testing_support

#define SKIP_WITHOUT_GPU()                                                                        \
    do {                                                                                          \
        if (!::ts::testing_support::device().usable)                                              \
            GTEST_SKIP() << "no usable CUDA device: " << ::ts::testing_support::device().why_not; \
    } while (0)
