// nvrtc_compiler.hpp — a learner's kernel compiled with NVRTC, the CUDA toolkit's run-time compiler.
//
// NVRTC is loaded at run time (dlopen("libnvrtc.so.13"), looking where the library path says, then
// in the toolkit's folders, as CUPTI is), so TileScope starts without it and says what to install
// when it is missing. It needs no GPU: without one the editor still compiles and reports errors.
// Only device code is compiled (-default-device): nothing of the learner's runs on the host.
//
// compile_user_kernel_with_deadline runs the compiler in a child process and gives up after the
// time limit (a template that recurses until the compiler runs out of patience). fork() copies
// only the calling thread: call it from a process whose other threads hold no lock the compiler
// needs (the CLI does; the app's worker process compiles before it starts any).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/user_kernel/source.hpp"

namespace ts::gpu {

// NVRTC's version ("13.0"), or nullopt with the reason in `why` when it cannot be loaded.
std::optional<std::string> nvrtc_version(std::string& why);

struct CompileResult {
    bool ok = false;                                 // compiled: `cubin` holds the module
    std::string why;                                 // when not ok: why, in a sentence
    std::string log;                                 // NVRTC's own log, whole
    std::vector<model::Diagnostic> diagnostics;      // the log's messages about the file
    std::vector<char> cubin;                         // the compiled module, for cuModuleLoadData
    double seconds = 0.0;                            // how long the compiler took
};

// Compiles `source` (named `file` in messages) for compute capability major.minor (sm_XY), in this
// process. Checks the source first (model::user_kernel_problem).
CompileResult compile_user_kernel(const std::string& source, const std::string& file, int major, int minor);

// The same in a child process that is killed after `seconds`; a result that says so then.
CompileResult compile_user_kernel_with_deadline(const std::string& source, const std::string& file, int major,
                                                int minor, double seconds);

}  // namespace ts::gpu
