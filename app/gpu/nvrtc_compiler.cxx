#include "nvrtc_compiler.hpp"

#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "model/format.hpp"
#include "toolkit_library.hpp"

namespace ts::gpu {

namespace {

using model::format_text;
using Clock = std::chrono::steady_clock;

constexpr const char* kNvrtcSoname = "libnvrtc.so.13";

// NVRTC's C interface as the CUDA documentation gives it: results are an enum (0 is success) and
// a program is an opaque pointer. Declared here so that TileScope builds without the toolkit's
// headers; the functions come from dlsym.
using NvrtcResult = int;
using NvrtcProgram = struct NvrtcProgramOpaque*;
struct NvrtcApi {
    NvrtcResult (*version)(int*, int*) = nullptr;
    NvrtcResult (*create_program)(NvrtcProgram*, const char*, const char*, int, const char* const*,
                                  const char* const*) = nullptr;
    NvrtcResult (*compile_program)(NvrtcProgram, int, const char* const*) = nullptr;
    NvrtcResult (*log_size)(NvrtcProgram, std::size_t*) = nullptr;
    NvrtcResult (*log)(NvrtcProgram, char*) = nullptr;
    NvrtcResult (*cubin_size)(NvrtcProgram, std::size_t*) = nullptr;
    NvrtcResult (*cubin)(NvrtcProgram, char*) = nullptr;
    NvrtcResult (*destroy_program)(NvrtcProgram*) = nullptr;
    const char* (*error_string)(NvrtcResult) = nullptr;
};

struct Nvrtc {
    std::mutex mutex;
    bool tried = false;
    std::string why_not;
    NvrtcApi api;
};

Nvrtc& nvrtc() {
    static Nvrtc instance;
    return instance;
}

template <typename Function>
bool resolve(void* library, const char* name, Function& function, std::string& why_not) {
    function = reinterpret_cast<Function>(dlsym(library, name));
    if (!function) why_not = format_text("NVRTC ({}) lacks {}: {}", kNvrtcSoname, name, dlerror());
    return function != nullptr;
}

// NVRTC opens its builtins library (libnvrtc-builtins.so.13.0) by name alone when it compiles.
// Where NVRTC itself was found outside the library path (under $CUDA_HOME, /usr/local/cuda),
// that name would not find it; loaded first from NVRTC's own folder, it is found as loaded.
void preload_builtins(const NvrtcApi& a) {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(a.version), &info) == 0 || info.dli_fname == nullptr) return;
    const std::string path = info.dli_fname;
    const std::string folder = path.substr(0, path.find_last_of('/') + 1);
    int major = 0, minor = 0;
    if (a.version(&major, &minor) != 0) return;
    for (const std::string& name : {format_text("libnvrtc-builtins.so.{}.{}", major, minor),
                                    std::string("libnvrtc-builtins.so")})
        if (dlopen((folder + name).c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr) return;
    dlerror();
}

// The library and its functions, loaded on first use; null with the reason in `why`.
const NvrtcApi* api(std::string& why) {
    Nvrtc& n = nvrtc();
    const std::lock_guard lock(n.mutex);
    if (!n.tried) {
        n.tried = true;
        std::string first_error;
        void* library = open_toolkit_library(kNvrtcSoname, first_error);
        if (!library) {
            n.why_not = format_text("NVRTC ({}) was not found: {}. It comes with the CUDA 13 toolkit (in its lib64 "
                                    "folder); install the toolkit (Debian: nvidia-cuda-toolkit or NVIDIA's cuda-nvrtc "
                                    "package), put that folder on LD_LIBRARY_PATH or set CUDA_HOME to the toolkit",
                                    kNvrtcSoname, first_error);
        } else {
            NvrtcApi& a = n.api;
            const bool all = resolve(library, "nvrtcVersion", a.version, n.why_not) &&
                             resolve(library, "nvrtcCreateProgram", a.create_program, n.why_not) &&
                             resolve(library, "nvrtcCompileProgram", a.compile_program, n.why_not) &&
                             resolve(library, "nvrtcGetProgramLogSize", a.log_size, n.why_not) &&
                             resolve(library, "nvrtcGetProgramLog", a.log, n.why_not) &&
                             resolve(library, "nvrtcGetCUBINSize", a.cubin_size, n.why_not) &&
                             resolve(library, "nvrtcGetCUBIN", a.cubin, n.why_not) &&
                             resolve(library, "nvrtcDestroyProgram", a.destroy_program, n.why_not) &&
                             resolve(library, "nvrtcGetErrorString", a.error_string, n.why_not);
            if (all) {
                n.why_not.clear();
                preload_builtins(a);
            }
        }
    }
    why = n.why_not;
    return n.why_not.empty() ? &n.api : nullptr;
}

// ---- The child's answer, through a pipe -------------------------------------------------------

void put_bytes(std::string& out, const void* data, std::size_t size) {
    const auto length = static_cast<std::uint64_t>(size);
    out.append(reinterpret_cast<const char*>(&length), sizeof length);
    out.append(static_cast<const char*>(data), size);
}

std::string encode(const CompileResult& r) {
    std::string out(1, r.ok ? '\1' : '\0');
    put_bytes(out, r.why.data(), r.why.size());
    put_bytes(out, r.log.data(), r.log.size());
    put_bytes(out, r.cubin.data(), r.cubin.size());
    out.append(reinterpret_cast<const char*>(&r.seconds), sizeof r.seconds);
    return out;
}

bool take_bytes(std::string_view& in, std::string& into) {
    std::uint64_t length = 0;
    if (in.size() < sizeof length) return false;
    std::memcpy(&length, in.data(), sizeof length);
    in.remove_prefix(sizeof length);
    if (in.size() < length) return false;
    into.assign(in.data(), static_cast<std::size_t>(length));
    in.remove_prefix(static_cast<std::size_t>(length));
    return true;
}

bool decode(std::string_view in, CompileResult& r) {
    if (in.empty()) return false;
    r.ok = in[0] == '\1';
    in.remove_prefix(1);
    std::string cubin;
    if (!take_bytes(in, r.why) || !take_bytes(in, r.log) || !take_bytes(in, cubin) || in.size() != sizeof r.seconds)
        return false;
    r.cubin.assign(cubin.begin(), cubin.end());
    std::memcpy(&r.seconds, in.data(), sizeof r.seconds);
    return true;
}

void write_all(int fd, const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t wrote = write(fd, data.data() + done, data.size() - done);
        if (wrote <= 0) return;
        done += static_cast<std::size_t>(wrote);
    }
}

}  // namespace

std::optional<std::string> nvrtc_version(std::string& why) {
    const NvrtcApi* a = api(why);
    if (!a) return std::nullopt;
    int major = 0, minor = 0;
    if (a->version(&major, &minor) != 0) {
        why = "NVRTC did not say its version";
        return std::nullopt;
    }
    return format_text("{}.{}", major, minor);
}

CompileResult compile_user_kernel(const std::string& source, const std::string& file, int major, int minor) {
    CompileResult result;
    if (auto problem = model::user_kernel_problem(source)) {
        result.why = *problem;
        return result;
    }
    const NvrtcApi* a = api(result.why);
    if (!a) return result;
    const Clock::time_point began = Clock::now();
    NvrtcProgram program = nullptr;
    if (const NvrtcResult r = a->create_program(&program, source.c_str(), file.c_str(), 0, nullptr, nullptr); r != 0) {
        result.why = format_text("NVRTC could not take the source: {}", a->error_string(r));
        return result;
    }
    // For this GPU's own architecture, device code only (nothing of the learner's runs on the host),
    // and the real machine code (a cubin) rather than PTX, so that loading it costs no further compile.
    const std::string architecture = format_text("--gpu-architecture=sm_{}{}", major, minor);
    const char* options[] = {architecture.c_str(), "-default-device", "-std=c++17", "-lineinfo"};
    const NvrtcResult compiled = a->compile_program(program, 4, options);
    std::size_t log_size = 0;
    if (a->log_size(program, &log_size) == 0 && log_size > 1) {
        result.log.resize(log_size);
        a->log(program, result.log.data());
        result.log.resize(log_size - 1);  // the size counts the closing NUL
    }
    if (compiled == 0) {
        std::size_t size = 0;
        if (a->cubin_size(program, &size) == 0 && size > 0) {
            result.cubin.resize(size);
            result.ok = a->cubin(program, result.cubin.data()) == 0;
        }
        if (!result.ok) result.why = "NVRTC compiled the kernel but gave no machine code for this architecture";
    } else {
        // 6: NVRTC_ERROR_COMPILATION, the source's fault; anything else is NVRTC's own trouble, in
        // its words and its log's.
        result.why = compiled == 6 ? std::string("the kernel does not compile")
                                   : format_text("NVRTC failed ({}){}", a->error_string(compiled),
                                                 result.log.empty() ? std::string() : ": " + result.log);
    }
    a->destroy_program(&program);
    result.seconds = std::chrono::duration<double>(Clock::now() - began).count();
    result.diagnostics = model::parse_compiler_log(result.log, file);
    return result;
}

CompileResult compile_user_kernel_with_deadline(const std::string& source, const std::string& file, int major,
                                                int minor, double seconds) {
    CompileResult result;
    if (auto problem = model::user_kernel_problem(source)) {
        result.why = *problem;
        return result;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        result.why = format_text("cannot start the compiler's process: {}", std::strerror(errno));
        return result;
    }
    const pid_t child = fork();
    if (child < 0) {
        close(fds[0]);
        close(fds[1]);
        result.why = format_text("cannot start the compiler's process: {}", std::strerror(errno));
        return result;
    }
    if (child == 0) {
        close(fds[0]);
        write_all(fds[1], encode(compile_user_kernel(source, file, major, minor)));
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    // Read as the child writes (a cubin is larger than a pipe holds) until it closes the pipe or
    // the time is up.
    const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                          std::chrono::duration<double>(seconds));
    std::string answer;
    bool finished = false;
    char buffer[65536];
    while (!finished) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) break;
        pollfd poll_fd{fds[0], POLLIN, 0};
        const int ready = poll(&poll_fd, 1, static_cast<int>(left));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) break;
        const ssize_t got = read(fds[0], buffer, sizeof buffer);
        if (got > 0) answer.append(buffer, static_cast<std::size_t>(got));
        else if (got == 0 || errno != EINTR) finished = true;
    }
    close(fds[0]);
    if (!finished) kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    if (!finished) {
        result.why = format_text("the compiler was still working after {} s and was stopped: a template that "
                                 "recurses without end, or code too large to compile in that time",
                                 model::fixed(seconds, seconds < 1.0 ? 3 : 1));
        result.seconds = seconds;
        return result;
    }
    if (!decode(answer, result)) {
        result = {};
        result.why = WIFSIGNALED(status)
                         ? format_text("the compiler's process ended on signal {} before it answered", WTERMSIG(status))
                         : std::string("the compiler's process ended without an answer");
        return result;
    }
    result.diagnostics = model::parse_compiler_log(result.log, file);
    return result;
}

}  // namespace ts::gpu
