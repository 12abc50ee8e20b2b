// toolkit_library.hpp — a library of the user's CUDA toolkit (CUPTI, NVRTC), opened at run time.
#pragma once

#include <string>

namespace ts::gpu {

// dlopen(`soname`) where the library path says, then under $CUDA_HOME, $CUDA_PATH, the toolkit
// TileScope was built with and /usr/local/cuda(-13), in lib64, lib, extras/CUPTI/lib64 and the
// targets' lib folders. Null when none opens, with the first dlerror in `first_error`.
void* open_toolkit_library(const char* soname, std::string& first_error);

}  // namespace ts::gpu
