// Host side of the sm_90a rungs (hopper_common.cuh): padded copies for TMA, tensor maps, and
// whether this GPU can run sm_90a code at all.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "kernels/common/hopper_common.cuh"
#include "kernels/common/row_copy.cuh"

namespace ts::kernels {

namespace {

int round_up_8(std::int64_t x) { return static_cast<int>(round_up(x, 8)); }

PFN_cuTensorMapEncodeTiled_v12000 encode_function(const char*& why) {
    static PFN_cuTensorMapEncodeTiled_v12000 function = nullptr;
    static const char* failure = nullptr;
    static bool tried = false;
    if (!tried) {
        tried = true;
        cudaDriverEntryPointQueryResult found{};
        void* address = nullptr;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &address, 12000, cudaEnableDefault, &found) !=
                cudaSuccess ||
            found != cudaDriverEntryPointSuccess)
            failure = "the CUDA driver has no cuTensorMapEncodeTiled (a driver for CUDA 12 or newer is needed)";
        function = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(address);
    }
    why = failure;
    return function;
}

CUtensorMapSwizzle tensor_map_swizzle(model::TmaSwizzle mode) {
    return mode == model::TmaSwizzle::B128  ? CU_TENSOR_MAP_SWIZZLE_128B
           : mode == model::TmaSwizzle::B64 ? CU_TENSOR_MAP_SWIZZLE_64B
           : mode == model::TmaSwizzle::B32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                            : CU_TENSOR_MAP_SWIZZLE_NONE;
}

// A tiled map of 16-bit (or, with `element_bytes` 1, 8-bit) elements with `Rank` dimensions (the
// innermost first): their sizes, the byte strides of all but the innermost, and the box. BF16 and
// FP16 are both 16-bit words to TMA, e4m3 bytes: it copies bits, it does no arithmetic.
// No L2 promotion: every row of a box is one whole 128-byte line already (the swizzle span), and
// promoting it to 256 bytes makes L2 fetch the line beside it as well, which another copy brings
// anyway: more lookups, more traffic between L2's two halves, more cycles
// (docs/notes/kernels-common.md has the measurements).
template <int Rank>
bool encode_tiled_map(CUtensorMap& map, const void* base, const cuuint64_t (&sizes)[Rank],
                      const cuuint64_t (&strides)[Rank - 1], const cuuint32_t (&box)[Rank], model::TmaSwizzle mode,
                      const char*& why, int element_bytes = 2) {
    const auto encode_tiled = encode_function(why);
    if (!encode_tiled) return false;
    cuuint32_t element_strides[Rank];
    for (cuuint32_t& e : element_strides) e = 1;
    const CUtensorMapDataType type = element_bytes == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : CU_TENSOR_MAP_DATA_TYPE_UINT16;
    const CUresult result = encode_tiled(&map, type, Rank, const_cast<void*>(base), sizes,
                                         strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                         tensor_map_swizzle(mode), CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS) {
        why = "cuTensorMapEncodeTiled refused the tensor map";
        return false;
    }
    return true;
}

// A matrix (inner, outer, batch): bytes from one row to the next and from one matrix to the next.
bool encode(CUtensorMap& map, const void* base, std::uint64_t inner, std::uint64_t outer, std::uint64_t batch,
            std::uint64_t row_stride_elements, std::uint32_t box_inner, std::uint32_t box_outer, model::TmaSwizzle mode,
            const char*& why, int element_bytes = 2) {
    const std::uint64_t row_bytes = row_stride_elements * static_cast<std::uint64_t>(element_bytes);
    return encode_tiled_map<3>(map, base, {inner, outer, batch}, {row_bytes, row_bytes * outer},
                               {box_inner, box_outer, 1}, mode, why, element_bytes);
}

// B (K×N, `n` a multiple of the span) as (span columns, K rows, N / span slabs, batch), boxes of
// span × box_rows × box_slabs: a run of slabs in one copy (model::b_slab_run). Bytes from one row
// of K to the next, from one slab to the next (span columns on), and from one matrix to the next.
bool encode_slab_runs(CUtensorMap& map, const void* base, std::uint64_t n, std::uint64_t k, std::uint64_t batch,
                      std::uint32_t span, std::uint32_t box_rows, std::uint32_t box_slabs, model::TmaSwizzle mode,
                      const char*& why) {
    return encode_tiled_map<4>(map, base, {span, k, n / span, batch}, {n * 2, span * 2, n * 2 * k},
                               {span, box_rows, box_slabs, 1}, mode, why);
}

}  // namespace

cudaError_t prepare_tma_operands(const model::Problem& p, Operands<std::uint16_t> operands, TmaOperands& out,
                                 cudaStream_t stream) {
    out = {operands.a, operands.b, static_cast<int>(p.k), static_cast<int>(p.n), nullptr};
    if (p.k % 8 == 0 && p.n % 8 == 0) return cudaSuccess;
    out.k_padded = round_up_8(p.k);
    out.n_padded = round_up_8(p.n);
    const std::int64_t a_elements = p.m * out.k_padded * p.batch, b_elements = p.k * out.n_padded * p.batch;
    if (const cudaError_t e = cudaMallocAsync(&out.scratch, (a_elements + b_elements) * 2, stream); e != cudaSuccess)
        return e;
    auto* a = static_cast<std::uint16_t*>(out.scratch);
    auto* b = a + a_elements;
    if (const cudaError_t e = copy_rows(a, out.k_padded, operands.a, p.k, p.m * p.batch, p.k, out.k_padded, stream);
        e != cudaSuccess)
        return e;
    if (const cudaError_t e = copy_rows(b, out.n_padded, operands.b, p.n, p.k * p.batch, p.n, out.n_padded, stream);
        e != cudaSuccess)
        return e;
    out.a = a;
    out.b = b;
    return cudaSuccess;
}

cudaError_t prepare_fp8_tma_operands(const model::Problem& p, const std::uint8_t* a, const std::uint8_t* b,
                                     TmaOperands& out, cudaStream_t stream) {
    constexpr int kRowBytes = 16;  // TMA's rows start on 16-byte boundaries: 16 e4m3 values
    out = {a, b, static_cast<int>(p.k), static_cast<int>(p.n), nullptr};
    if (p.k % kRowBytes == 0) return cudaSuccess;
    out.k_padded = static_cast<int>(round_up(p.k, kRowBytes));
    const std::int64_t a_elements = p.m * out.k_padded * p.batch, b_elements = p.n * out.k_padded * p.batch;
    if (const cudaError_t e = cudaMallocAsync(&out.scratch, a_elements + b_elements, stream); e != cudaSuccess) return e;
    auto* a_padded = static_cast<std::uint8_t*>(out.scratch);
    auto* b_padded = a_padded + a_elements;
    if (const cudaError_t e = copy_rows(a_padded, out.k_padded, a, p.k, p.m * p.batch, p.k, out.k_padded, stream);
        e != cudaSuccess)
        return e;
    if (const cudaError_t e = copy_rows(b_padded, out.k_padded, b, p.k, p.n * p.batch, p.k, out.k_padded, stream);
        e != cudaSuccess)
        return e;
    out.a = a_padded;
    out.b = b_padded;
    return cudaSuccess;
}

cudaError_t release_tma_operands(TmaOperands& operands, cudaStream_t stream) {
    if (!operands.scratch) return cudaSuccess;
    const cudaError_t e = cudaFreeAsync(operands.scratch, stream);
    operands.scratch = nullptr;
    return e;
}

bool make_tensor_maps(const model::WgmmaShape& s, const model::Problem& p, const TmaOperands& operands,
                      CUtensorMap& a_map, CUtensorMap& b_map, const char*& why) {
    const auto span = static_cast<std::uint32_t>(s.span_elements());
    const auto batch = static_cast<std::uint64_t>(p.batch);
    if (!encode(a_map, operands.a, static_cast<std::uint64_t>(p.k), static_cast<std::uint64_t>(p.m), batch,
                static_cast<std::uint64_t>(operands.k_padded), span, static_cast<std::uint32_t>(s.bm), s.swizzle, why,
                s.element_bytes))
        return false;
    // N×K: K inner, like A's.
    if (s.b_k_major)
        return encode(b_map, operands.b, static_cast<std::uint64_t>(p.k), static_cast<std::uint64_t>(p.n), batch,
                      static_cast<std::uint64_t>(operands.k_padded), span,
                      static_cast<std::uint32_t>(model::b_box_rows(s)), s.swizzle, why, s.element_bytes);
    if (model::b_slab_runs(s, p.n))
        return encode_slab_runs(b_map, operands.b, static_cast<std::uint64_t>(p.n), static_cast<std::uint64_t>(p.k),
                                batch, span, static_cast<std::uint32_t>(s.bk),
                                static_cast<std::uint32_t>(model::b_run_slabs(s)), s.swizzle, why);
    return encode(b_map, operands.b, static_cast<std::uint64_t>(p.n), static_cast<std::uint64_t>(p.k), batch,
                  static_cast<std::uint64_t>(operands.n_padded), span, static_cast<std::uint32_t>(model::b_box_rows(s)),
                  s.swizzle, why);
}

bool make_c_tensor_map(const model::WgmmaShape& s, const model::Problem& p, void* c, CUtensorMap& c_map,
                       const char*& why) {
    if (p.n % 8 != 0 || reinterpret_cast<std::uintptr_t>(c) % 16 != 0) {
        why = "TMA writes rows that start on 16-byte boundaries: N is not a multiple of 8";
        return false;
    }
    return encode(c_map, c, static_cast<std::uint64_t>(p.n), static_cast<std::uint64_t>(p.m),
                  static_cast<std::uint64_t>(p.batch), static_cast<std::uint64_t>(p.n),
                  static_cast<std::uint32_t>(s.span_elements()), static_cast<std::uint32_t>(s.consumer_rows()), s.swizzle,
                  why);
}

namespace {

// Stream-K's slots per device: the sums, the flags (zero when made), how many slots of how many
// floats they hold. Freed when the process ends (before the CUDA runtime's own teardown, which was
// registered earlier), so that a leak check sees nothing left.
struct HeldSlots {
    int device = -1;
    float* sums = nullptr;
    unsigned* flags = nullptr;
    std::size_t slots = 0, floats = 0;
};
struct SlotsCache {
    std::mutex guard;
    std::vector<HeldSlots> held;
    std::atomic<unsigned> epoch{0};
    ~SlotsCache() {
        for (HeldSlots& h : held) release(h);
    }
    static void release(HeldSlots& h) {
        int current = 0;
        if (cudaGetDevice(&current) != cudaSuccess) return;
        if (cudaSetDevice(h.device) == cudaSuccess) {
            cudaFree(h.sums);
            cudaFree(h.flags);
        }
        cudaSetDevice(current);
        h = HeldSlots{h.device};
    }
};

}  // namespace

cudaError_t stream_k_slots(int per_sm, std::size_t floats, StreamKSlots& out) {
    static SlotsCache cache;
    int device = 0, sms = 0;
    if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
    if (const cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device); e != cudaSuccess)
        return e;
    const auto slots = static_cast<std::size_t>(sms) * static_cast<std::size_t>(per_sm);
    const std::lock_guard<std::mutex> lock(cache.guard);
    auto it = std::find_if(cache.held.begin(), cache.held.end(), [&](const HeldSlots& h) { return h.device == device; });
    if (it == cache.held.end()) it = cache.held.insert(cache.held.end(), HeldSlots{device});
    if (it->slots < slots || it->floats < floats) {
        // Larger ones replace them (cudaFree waits for the launches that may still use them).
        SlotsCache::release(*it);
        if (const cudaError_t e = cudaMalloc(&it->sums, slots * floats * sizeof(float)); e != cudaSuccess) return e;
        if (const cudaError_t e = cudaMalloc(&it->flags, slots * sizeof(unsigned)); e != cudaSuccess) return e;
        if (const cudaError_t e = cudaMemset(it->flags, 0, slots * sizeof(unsigned)); e != cudaSuccess) return e;
        it->slots = slots;
        it->floats = floats;
    }
    // Epoch 0 is the flags' first value: never a launch's.
    unsigned next = ++cache.epoch;
    if (next == 0) next = ++cache.epoch;
    out = {it->sums, it->flags, next};
    return cudaSuccess;
}

const char* sm90a_unavailable() {
    int device = 0, major = 0, minor = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
        return "no CUDA device to ask";
    if (major != 9 || minor != 0)
        return "wgmma, TMA's tensor copies with mbarriers and setmaxnreg are sm_90a instructions: this rung runs on "
               "Hopper (H100, H200, compute capability 9.0) alone, and Blackwell's tensor cores use other ones";
    return nullptr;
}

}  // namespace ts::kernels
