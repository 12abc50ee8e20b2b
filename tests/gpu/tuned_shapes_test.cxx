// Which candidate the tuned rung runs: the user's table first, then the shipped one; a user's
// table that does not parse is passed over with its reason in the choice's source.
#include "gpu/tuned_shapes.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace ts::gpu {
namespace {

class TunedShapes : public testing::Test {
protected:
    void SetUp() override {
        m_path = std::filesystem::temp_directory_path() /
                 ("tilescope-tuned-" + std::to_string(::getpid()) + "-" +
                  testing::UnitTest::GetInstance()->current_test_info()->name() + ".ini");
        ::setenv("TILESCOPE_TUNING", m_path.c_str(), 1);
    }
    void TearDown() override {
        ::unsetenv("TILESCOPE_TUNING");
        std::filesystem::remove(m_path);
    }
    void write(const std::string& text) { std::ofstream(m_path) << text; }
    static model::Problem square(int size) {
        model::Problem p;
        p.m = p.n = p.k = size;
        return p;
    }
    std::filesystem::path m_path;
};

TEST_F(TunedShapes, TheUsersTableComesFirst) {
    write("[NVIDIA H100]\n* = 2\n");
    const TunedChoice choice = choose_tuned_variant(model::KernelKind::Tuned, "NVIDIA H100 80GB HBM3", square(4096));
    EXPECT_EQ(choice.variant, 2);
    EXPECT_NE(choice.source.find(m_path.string()), std::string::npos) << choice.source;
}

TEST_F(TunedShapes, WithoutOneTheShippedTableAnswers) {
    EXPECT_EQ(choose_tuned_variant(model::KernelKind::Tuned, "NVIDIA H100 80GB HBM3", square(1024)).variant, 3);
    EXPECT_EQ(choose_tuned_variant(model::KernelKind::Tuned, "NVIDIA H100 80GB HBM3", square(4096)).variant, 1);
    EXPECT_EQ(choose_tuned_variant(model::KernelKind::Tuned, "NVIDIA H100 80GB HBM3", square(4096)).source, "shipped table");
    EXPECT_EQ(choose_tuned_variant(model::KernelKind::Tuned, "Some Future GPU", square(4096)).variant, 0);
}

TEST_F(TunedShapes, ABadTableIsPassedOverAndNamed) {
    write("[NVIDIA H100]\n1024 = 7\n");  // written when there were more candidates
    const TunedChoice choice = choose_tuned_variant(model::KernelKind::Tuned, "NVIDIA H100 80GB HBM3", square(1024));
    EXPECT_EQ(choice.variant, 3) << "the shipped table's choice";
    EXPECT_NE(choice.source.find("shipped table; ignored " + m_path.string() + ": line 2"), std::string::npos)
        << choice.source;
}

}  // namespace
}  // namespace ts::gpu
