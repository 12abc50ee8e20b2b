// Which GPUs a CUDA build can run kernels on, and what the app says about one it cannot.
#include <gtest/gtest.h>

#include "model/device_limits.hpp"

namespace {

using ts::model::gpu_too_old;
using ts::model::oldest_compute_capability;

TEST(GpuTooOld, Cuda13StartsAtTuring) {
    EXPECT_EQ(oldest_compute_capability(13), 75);
    EXPECT_EQ(oldest_compute_capability(12), 50);
    EXPECT_FALSE(gpu_too_old("NVIDIA H200", 9, 0, 13));
    EXPECT_FALSE(gpu_too_old("Tesla T4", 7, 5, 13));
    EXPECT_FALSE(gpu_too_old("NVIDIA GeForce RTX 5090", 12, 0, 13));
    EXPECT_TRUE(gpu_too_old("Tesla V100-SXM2-16GB", 7, 0, 13));
    EXPECT_FALSE(gpu_too_old("Tesla V100-SXM2-16GB", 7, 0, 12));
}

TEST(GpuTooOld, NamesTheGpuItsCapabilityAndWhatIsNeeded) {
    const auto why = gpu_too_old("Quadro P2000", 6, 1, 13);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("Quadro P2000"), std::string::npos) << *why;
    EXPECT_NE(why->find("compute capability 6.1"), std::string::npos) << *why;
    EXPECT_NE(why->find("CUDA 13"), std::string::npos) << *why;
    EXPECT_NE(why->find("7.5 and newer"), std::string::npos) << *why;
    EXPECT_NE(why->find("model mode"), std::string::npos) << *why;
}

}  // namespace
