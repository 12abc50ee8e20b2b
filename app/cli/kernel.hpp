// kernel.hpp — `tilescope-cli kernel FILE.cu`: the learner's own kernel (model/user_kernel.hpp).
//
// So far it compiles: with NVRTC (gpu/nvrtc_compiler.hpp), for the architecture asked, in a child
// process with a time limit, and lists the compiler's errors and warnings with line and column.
// No GPU is needed. Running, checking and timing the kernel come next (issue 25); until then
// --compile-only is required and said so.
#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace ts::cli {

struct KernelOptions {
    std::string file;            // the .cu file
    bool compile_only = false;   // --compile-only
    std::string arch = "sm_90";  // --arch sm_XY
    double time_limit_s = 30.0;  // --time-limit S
    bool template_out = false;   // --template: print the empty kernel and stop
};

CLI::App* add_kernel_command(CLI::App& app, KernelOptions& options);

// 0: compiled (warnings allowed); 1: it does not compile, or the compiler was stopped at the time
// limit; 2: bad arguments, an unreadable or unusable file, or no NVRTC.
int run_kernel(const KernelOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ts::cli
