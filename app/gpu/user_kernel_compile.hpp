// user_kernel_compile.hpp — the learner's kernel compiled into a UserCompileReport: NVRTC in a
// child process stopped at the source's time limit (nvrtc_compiler.hpp). No CUDA runtime here, so
// a TileScope built without CUDA still answers a UserCompile: compiling needs no GPU.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runner.hpp"

namespace ts::gpu {

// "sm_90" → 9, 0; nullopt for anything that is not sm_ and a compute capability of 5.0 or more.
std::optional<std::pair<int, int>> parse_arch(const std::string& arch);

// Compiles `user` for `arch` ("sm_90"). The report says why when it did not compile; `cubin`, when
// not null, receives the machine code.
UserCompileReport compile_user_source(const UserKernelSource& user, const std::string& arch, std::vector<char>* cubin);

}  // namespace ts::gpu
