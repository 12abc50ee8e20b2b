// gpu_skip.hpp — gpu tests skip, with the reason, where no CUDA device is usable.
#pragma once

#include <gtest/gtest.h>

#include "gpu/runner.hpp"

namespace ts::testing_support {

// Probed once per test binary: the first CUDA call is slow.
inline const gpu::DeviceInfo& device() {
    static const gpu::DeviceInfo info = gpu::probe_device();
    return info;
}

}  // namespace ts::testing_support

#define SKIP_WITHOUT_GPU()                                                                        \
    do {                                                                                          \
        if (!::ts::testing_support::device().usable)                                              \
            GTEST_SKIP() << "no usable CUDA device: " << ::ts::testing_support::device().why_not; \
    } while (0)
