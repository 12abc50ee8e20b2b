// The "{}" formatter and the byte/time helpers behind every number the app prints.
#include <gtest/gtest.h>

#include "model/format.hpp"

using namespace ts::model;

TEST(Format, FillsHolesInOrder) {
    EXPECT_EQ(format_text("{} × {}", 3, 4), "3 × 4");
    EXPECT_EQ(format_text("no holes"), "no holes");
    EXPECT_EQ(format_text("{}{}-{}", "a", 'b', 1.5), "ab-1.5");
    EXPECT_EQ(format_text("T = {}", std::int64_t{1} << 40), "T = 1099511627776");
    // Surplus arguments are dropped, surplus holes stay visible.
    EXPECT_EQ(format_text("{}", 1, 2), "1");
    EXPECT_EQ(format_text("{} and {}", 1), "1 and {}");
}

TEST(HumanBytes, PicksTheLargestUnitBelow1024) {
    EXPECT_EQ(human_bytes(0), "0 B");
    EXPECT_EQ(human_bytes(1023), "1023 B");
    EXPECT_EQ(human_bytes(1024), "1.0 KiB");
    EXPECT_EQ(human_bytes(1536), "1.5 KiB");
    EXPECT_EQ(human_bytes(48 * 1024), "48.0 KiB");
    EXPECT_EQ(human_bytes(std::int64_t{3} << 30), "3.0 GiB");
    EXPECT_EQ(human_bytes(std::int64_t{5} << 40), "5.0 TiB");
    EXPECT_EQ(human_bytes(std::int64_t{5000} << 40), "5000.0 TiB");
}

TEST(HumanBytes, RoundsUpIntoTheNextUnit) {
    EXPECT_EQ(human_bytes((1 << 20) - 1), "1.0 MiB");
    EXPECT_EQ(human_bytes(1023 * 1024 + 1000), "1.0 MiB");
    EXPECT_EQ(human_bytes(1023 * 1024), "1023.0 KiB");
}

TEST(HumanSeconds, ThreeSignificantDigits) {
    EXPECT_EQ(human_seconds(812e-9), "812 ns");
    EXPECT_EQ(human_seconds(4.21e-6), "4.21 µs");
    EXPECT_EQ(human_seconds(15.5e-3), "15.5 ms");
    EXPECT_EQ(human_seconds(2.3), "2.30 s");
    EXPECT_EQ(human_seconds(120.0), "120 s");
    EXPECT_EQ(human_seconds(999.4e-6), "999 µs");
    EXPECT_EQ(human_seconds(0.5e-9), "0.50 ns");
}

TEST(HumanSeconds, RoundingNeverAddsAFourthDigit) {
    EXPECT_EQ(human_seconds(9.999), "10.0 s");
    EXPECT_EQ(human_seconds(99.97e-3), "100 ms");
    EXPECT_EQ(human_seconds(0.9996), "1.00 s");
    EXPECT_EQ(human_seconds(999.7e-9), "1.00 µs");
}

TEST(Format, FixedKeepsTheDecimalsAskedFor) {
    EXPECT_EQ(ts::model::fixed(3.14159, 2), "3.14");
    EXPECT_EQ(ts::model::fixed(2.5, 0), "2");   // printf rounds half to even
    EXPECT_EQ(ts::model::fixed(1234.5678, 3), "1234.568");
}
