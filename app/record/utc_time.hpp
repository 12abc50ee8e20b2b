// utc_time.hpp — the time now in UTC as text, for what TileScope writes down: a measurement's
// date, a kernel trace's recorded_at, a session journal's name and start.
#pragma once

#include <string>

namespace ts::record {

// "YYYY-MM-DDTHH:MM:SSZ": a measurement's date_utc, a journal's start.
inline constexpr const char* kUtcIso8601 = "%Y-%m-%dT%H:%M:%SZ";
// "YYYY-MM-DD HH:MM UTC": a kernel trace's recorded_at, read by people.
inline constexpr const char* kUtcToTheMinute = "%Y-%m-%d %H:%M UTC";

// The time now in UTC, as std::strftime writes it with `format` (at most 31 characters).
std::string utc_now(const char* format = kUtcIso8601);

}  // namespace ts::record
