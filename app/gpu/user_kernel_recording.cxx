#include "user_kernel_recording.hpp"

#include <algorithm>

#include "model/user_kernel.hpp"

namespace ts::gpu {

namespace {

// Compiled before the learner's kernel when it is recorded. Its Event is model::UserEvent, field
// for field; ts_rec_buffers is filled by the worker before the launch.
constexpr const char* kPrelude = R"prelude(// TileScope's recording prelude (gpu/user_kernel_recording.cxx).
namespace ts_rec {
struct Event {
    int block;
    short thread_x, thread_y;
    int barriers;
    int kind_index;  // kind << 30 | index
};
static_assert(sizeof(Event) == 16, "the host reads 16-byte notes");
struct Buffers {
    Event* events;
    unsigned long long capacity;
    unsigned long long* count;
    int* barriers;                  // by thread of the grid: barriers passed
    unsigned int* block_sm;         // by block
    unsigned long long* times_ns;   // by block, timed_barriers + 1 each
    unsigned long long* times_cycles;
    int timed_barriers;
};
}  // namespace ts_rec

__device__ ts_rec::Buffers ts_rec_buffers;

namespace ts_rec {
__device__ inline int block_linear() { return blockIdx.y * gridDim.x + blockIdx.x; }
__device__ inline int thread_linear() {
    return block_linear() * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
}
__device__ inline bool first_thread() { return threadIdx.x == 0 && threadIdx.y == 0; }
__device__ inline void stamp(int slot) {
    const Buffers& b = ts_rec_buffers;
    if (slot > b.timed_barriers) return;
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    const unsigned long long at = static_cast<unsigned long long>(block_linear()) * (b.timed_barriers + 1) + slot;
    b.times_ns[at] = now;
    b.times_cycles[at] = clock64();
}
__device__ inline void note(int kind, long long index) {
    const Buffers& b = ts_rec_buffers;
    // Thread (0, 0)'s first access starts its block's clock and names its SM.
    if (first_thread() && b.times_ns[static_cast<unsigned long long>(block_linear()) * (b.timed_barriers + 1)] == 0) {
        unsigned int sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        b.block_sm[block_linear()] = sm;
        stamp(0);
    }
    const unsigned long long at = atomicAdd(b.count, 1ULL);
    if (at < b.capacity)
        b.events[at] = Event{block_linear(), static_cast<short>(threadIdx.x), static_cast<short>(threadIdx.y),
                             b.barriers[thread_linear()], (kind << 30) | static_cast<int>(index & 0x3FFFFFFF)};
}
__device__ inline void barrier() {
    __syncthreads();
    const int passed = ++ts_rec_buffers.barriers[thread_linear()];
    if (first_thread()) stamp(passed);
}
template <int Kind>
struct In {
    const float* p;
    __device__ float operator[](long long i) const {
        note(Kind, i);
        return p[i];
    }
};
struct Out {
    float* p;
    struct Cell {
        float* p;
        long long i;
        __device__ Cell& operator=(float v) {
            note(2, i);
            p[i] = v;
            return *this;
        }
        __device__ Cell& operator+=(float v) { return *this = p[i] + v; }
        __device__ operator float() const { return p[i]; }
    };
    __device__ Cell operator[](long long i) const { return Cell{p, i}; }
};
}  // namespace ts_rec

#define __syncthreads() ts_rec::barrier()
#line 1
)prelude";

constexpr const char* kRecordingParameters =
    "ts_rec::In<0> A, ts_rec::In<1> B, ts_rec::Out C, int M, int N, int K";

}  // namespace

std::variant<std::string, std::string> recording_source(const std::string& source) {
    using Result = std::variant<std::string, std::string>;
    const std::string name(model::kUserKernelName);
    // The kernel's parameter list: after "matmul", spaces, "(", to the matching ")".
    std::size_t at = 0;
    std::size_t open = std::string::npos;
    while ((at = source.find(name, at)) != std::string::npos) {
        std::size_t next = at + name.size();
        while (next < source.size() && (source[next] == ' ' || source[next] == '\t' || source[next] == '\n')) ++next;
        if (next < source.size() && source[next] == '(') {
            open = next;
            break;
        }
        at += name.size();
    }
    if (open == std::string::npos)
        return Result(std::in_place_index<1>, std::string("no matmul( parameter list to record through"));
    int depth = 0;
    std::size_t close = open;
    for (; close < source.size(); ++close) {
        if (source[close] == '(') ++depth;
        if (source[close] == ')' && --depth == 0) break;
    }
    if (close >= source.size())
        return Result(std::in_place_index<1>, std::string("matmul('s parameter list is not closed"));
    // The same number of lines, so every line after it keeps its number.
    const auto newlines = std::count(source.begin() + static_cast<std::ptrdiff_t>(open),
                                     source.begin() + static_cast<std::ptrdiff_t>(close), '\n');
    std::string parameters = kRecordingParameters;
    parameters.append(static_cast<std::size_t>(newlines), '\n');
    return Result(std::in_place_index<0>,
                  kPrelude + source.substr(0, open + 1) + parameters + source.substr(close));
}

}  // namespace ts::gpu
