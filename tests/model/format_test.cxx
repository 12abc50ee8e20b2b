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

TEST(HumanJoules, ThreeSignificantDigitsInTheUnitThatFits) {
    EXPECT_EQ(human_joules(1.532), "1.53 J");
    EXPECT_EQ(human_joules(0.6), "600 mJ");
    EXPECT_EQ(human_joules(4.214e-6), "4.21 µJ");
    EXPECT_EQ(human_joules(1234.0), "1.23 kJ");
    EXPECT_EQ(human_joules(0.9996), "1.00 J");
    EXPECT_EQ(human_joules(0.0), "0 J");
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

TEST(Counted, SingularAtOneOnly) {
    EXPECT_EQ(counted(1, "tile"), "1 tile");
    EXPECT_EQ(counted(2, "tile"), "2 tiles");
    EXPECT_EQ(counted(0, "tile"), "0 tiles");
    EXPECT_EQ(counted(1, "round"), "1 round");
    EXPECT_EQ(counted(4, "round"), "4 rounds");
    EXPECT_EQ(counted(1, "pass"), "1 pass");
    EXPECT_EQ(counted(2, "pass"), "2 passes");
    EXPECT_EQ(counted(3, "box"), "3 boxes");
    EXPECT_EQ(counted(2, "entry"), "2 entries");
    EXPECT_EQ(counted(2, "array"), "2 arrays");
    EXPECT_EQ(counted(1, "matrix", "matrices"), "1 matrix");
    EXPECT_EQ(counted(2, "matrix", "matrices"), "2 matrices");
    EXPECT_EQ(noun_for(1, "wavefront"), "wavefront");
    EXPECT_EQ(noun_for(8, "wavefront"), "wavefronts");
}

TEST(Ordinal, EnglishSuffixes) {
    EXPECT_EQ(ordinal(1), "1st");
    EXPECT_EQ(ordinal(2), "2nd");
    EXPECT_EQ(ordinal(3), "3rd");
    EXPECT_EQ(ordinal(4), "4th");
    EXPECT_EQ(ordinal(11), "11th");
    EXPECT_EQ(ordinal(12), "12th");
    EXPECT_EQ(ordinal(13), "13th");
    EXPECT_EQ(ordinal(21), "21st");
    EXPECT_EQ(ordinal(22), "22nd");
    EXPECT_EQ(ordinal(23), "23rd");
    EXPECT_EQ(ordinal(101), "101st");
    EXPECT_EQ(ordinal(111), "111th");
    EXPECT_EQ(ordinal(112), "112th");
    EXPECT_EQ(ordinal(132), "132nd");
}
