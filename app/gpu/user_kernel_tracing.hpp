// user_kernel_tracing.hpp — the learner's kernel made to record itself (model/user_kernel/user_trace.hpp).
//
// The source is compiled a second time with a prelude of TileScope's: the signature's A, B and C
// become accessors (ts_rec::In, ts_rec::Out) that note every A[i] and B[i] read and every C[i]
// store with the thread, its block and the barriers it has passed, and __syncthreads() becomes a
// barrier that counts. The kernel's own text is unchanged, line for line (a #line directive keeps
// the compiler's line numbers the file's), so the trace runs the same code the plain build
// runs, with notes beside it. Shared arrays note their reads and writes the same way. A kernel
// that uses A, B or C other than by index (A + i, a float4 cast) does not compile this way, and
// the trace says why.
//
// No CUDA here: the text is made on any machine, and NVRTC compiles it without a GPU.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace ts::gpu {

// The global variable the trace's buffers are handed to the kernel in (cudaLibraryGetGlobal).
inline constexpr const char* kTracingBuffersName = "ts_rec_buffers";

// The tracing build: its source, the kernel's shared arrays by the id its notes carry, and why
// shared memory is not recorded (empty where it is).
struct TracingBuild {
    std::string source;
    std::vector<std::string> shared_names;
    std::string shared_not_recorded;
};

// The tracing build of `source` (index 0), or why it cannot be made (index 1): no `matmul(`
// parameter list to replace. With `record_shared`, the kernel's shared arrays note their accesses
// too: each `__shared__ float name[R][C];` (or [N], or `extern __shared__ float name[];`) becomes
// an accessor and `name` a macro for it to the end of its block (#line directives keep the line
// numbers). A declaration of another form leaves shared memory unrecorded, and says why.
std::variant<TracingBuild, std::string> tracing_source(const std::string& source, bool record_shared = true);

}  // namespace ts::gpu
