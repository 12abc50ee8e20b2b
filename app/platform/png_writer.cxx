#include "png_writer.hpp"

#include <cstring>
#include <vector>

// Debian's libstb.so already contains stb_image_write's implementation (tilescope::stb
// links it), so this file only includes the declarations.
#include <stb_image_write.h>

namespace ts::platform {

std::optional<std::string> write_png(const std::string& path, int width, int height,
                                     std::span<const unsigned char> rgb_bottom_up) {
    const std::size_t row_bytes = static_cast<std::size_t>(width) * 3;
    if (width <= 0 || height <= 0 || rgb_bottom_up.size() != row_bytes * static_cast<std::size_t>(height))
        return "screenshot: the image size does not match its pixel data";
    // OpenGL's first row is the bottom of the window; PNG's is the top.
    std::vector<unsigned char> top_down(rgb_bottom_up.size());
    for (int y = 0; y < height; ++y)
        std::memcpy(top_down.data() + static_cast<std::size_t>(y) * row_bytes,
                    rgb_bottom_up.data() + static_cast<std::size_t>(height - 1 - y) * row_bytes, row_bytes);
    if (!stbi_write_png(path.c_str(), width, height, 3, top_down.data(), static_cast<int>(row_bytes)))
        return "screenshot: cannot write " + path;
    return std::nullopt;
}

}  // namespace ts::platform
