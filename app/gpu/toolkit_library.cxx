#include "toolkit_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

// Where CMake found the toolkit TileScope was built with (empty without one).
#ifndef TILESCOPE_CUDA_ROOT
#define TILESCOPE_CUDA_ROOT ""
#endif
#ifndef TILESCOPE_CUDA_LIBRARY_DIR
#define TILESCOPE_CUDA_LIBRARY_DIR ""
#endif

namespace ts::gpu {

namespace {

std::vector<std::string> library_candidates(const char* soname) {
    std::vector<std::string> roots;
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* root = std::getenv(variable); root && *root) roots.emplace_back(root);
    if (*TILESCOPE_CUDA_ROOT) roots.emplace_back(TILESCOPE_CUDA_ROOT);
    roots.emplace_back("/usr/local/cuda");
    roots.emplace_back("/usr/local/cuda-13");
    std::vector<std::string> paths;
    if (*TILESCOPE_CUDA_LIBRARY_DIR) paths.push_back(std::string(TILESCOPE_CUDA_LIBRARY_DIR) + "/" + soname);
    // CUPTI sits in lib64 since CUDA 13, in extras/CUPTI/lib64 before.
    for (const std::string& root : roots)
        for (const char* folder : {"/lib64/", "/lib/", "/extras/CUPTI/lib64/", "/targets/x86_64-linux/lib/",
                                   "/targets/sbsa-linux/lib/"})
            paths.push_back(root + folder + soname);
    return paths;
}

}  // namespace

void* open_toolkit_library(const char* soname, std::string& first_error) {
    void* library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library) return library;
    first_error = dlerror();
    for (const std::string& path : library_candidates(soname)) {
        library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library) return library;
        dlerror();
    }
    return nullptr;
}

}  // namespace ts::gpu
