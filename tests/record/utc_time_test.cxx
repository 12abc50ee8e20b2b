// The time now in UTC, in the two forms TileScope writes down.
#include <gtest/gtest.h>

#include "record/utc_time.hpp"

namespace {

using ts::record::utc_now;

TEST(UtcTime, DateIsUtcIso8601) {
    const std::string date = utc_now();
    ASSERT_EQ(date.size(), 20u) << date;
    EXPECT_EQ(date[4], '-');
    EXPECT_EQ(date[10], 'T');
    EXPECT_EQ(date.back(), 'Z');
}

TEST(UtcTime, ToTheMinuteSaysUtc) {
    const std::string date = utc_now(ts::record::kUtcToTheMinute);
    ASSERT_EQ(date.size(), 20u) << date;  // "YYYY-MM-DD hh:mm UTC"
    EXPECT_EQ(date[4], '-');
    EXPECT_EQ(date[10], ' ');
    EXPECT_EQ(date[13], ':');
    EXPECT_EQ(date.substr(16), " UTC");
}

}  // namespace
