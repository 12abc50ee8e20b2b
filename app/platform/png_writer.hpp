// png_writer.hpp — screenshots to PNG files.
#pragma once

#include <optional>
#include <span>
#include <string>

namespace ts::platform {

// Writes `rgb` (width × height × 3 bytes, rows bottom-up as glReadPixels returns them) to
// `path`. Returns why it failed, or nullopt.
std::optional<std::string> write_png(const std::string& path, int width, int height,
                                     std::span<const unsigned char> rgb_bottom_up);

}  // namespace ts::platform
