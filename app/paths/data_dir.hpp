// data_dir.hpp — where TileScope finds what it reads at run time besides its own code: the
// lessons, the committed measurements and the GPU traces (lessons/, measurements/,
// traces/). Installed, that is <prefix>/share/tilescope beside <prefix>/bin; run from a
// build tree, the assets/ folder of the source tree it was built from.
#pragma once

#include <filesystem>

namespace ts::paths {

// In this order: $TILESCOPE_DATA_DIR if set; <folder of the running program>/../share/tilescope
// if it holds lessons (installed anywhere, moved or not); the source tree's assets/; the
// share/tilescope of the prefix the build was configured for. The last one if none exists,
// so that messages name where the data should be.
std::filesystem::path data_dir();

}  // namespace ts::paths
