#include "cublas_library.hpp"

#include <cublas_v2.h>  // types and declarations only: every function comes from dlsym
#include <dlfcn.h>

#include <mutex>
#include <stdexcept>
#include <type_traits>

#include "cublaslt_library.hpp"
#include "model/format.hpp"

namespace ts::gpu {

namespace {

using model::format_text;

constexpr const char* kCublasSoname = "libcublas.so.13";

// The few functions TileScope calls, resolved by their exported names (cublas_v2.h maps
// cublasCreate to cublasCreate_v2 and so on; the un-suffixed ones have no _v2 form).
struct CublasApi {
    decltype(&::cublasCreate_v2) create = nullptr;
    decltype(&::cublasDestroy_v2) destroy = nullptr;
    decltype(&::cublasSetStream_v2) set_stream = nullptr;
    decltype(&::cublasSetMathMode) set_math_mode = nullptr;
    decltype(&::cublasGetStatusString) status_string = nullptr;
    decltype(&::cublasSgemm_v2) sgemm = nullptr;
    decltype(&::cublasDgemm_v2) dgemm = nullptr;
    decltype(&::cublasSgemmStridedBatched) sgemm_batched = nullptr;
    decltype(&::cublasDgemmStridedBatched) dgemm_batched = nullptr;
    // Written out: C++ sees overloads of these two (cublas_api.h), the library exports the C ones.
    cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                              const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                              cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
    cublasStatus_t (*gemm_batched_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                      const void*, const void*, cudaDataType, int, long long, const void*,
                                      cudaDataType, int, long long, const void*, void*, cudaDataType, int, long long,
                                      int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
};

// One per process: the library, its functions and one handle, made on first use. The
// handle is destroyed by release_cublas() when the runner stops (not by a static
// destructor: that would run after the CUDA runtime has begun to tear down).
struct Cublas {
    std::mutex mutex;  // a handle may be used by one thread at a time
    bool tried = false;
    std::string why_not;
    CublasApi api;
    cublasHandle_t handle = nullptr;
};

Cublas& cublas() {
    static Cublas instance;
    return instance;
}

std::string status_text(const CublasApi& api, cublasStatus_t status) {
    return format_text("{} ({})", api.status_string ? api.status_string(status) : "unknown status",
                  static_cast<int>(status));
}

template <typename Function>
bool resolve(void* library, const char* name, Function& function, std::string& why_not) {
    function = reinterpret_cast<Function>(dlsym(library, name));
    if (!function) why_not = format_text("cuBLAS ({}) lacks {}: {}", kCublasSoname, name, dlerror());
    return function != nullptr;
}

// Loads the library and makes the handle; on failure leaves the reason in why_not. Called
// with the mutex held.
void load(Cublas& c) {
    c.tried = true;
    void* library = dlopen(kCublasSoname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const std::string first_error = dlerror();
        // A toolkit installed without its versioned link still has the development name.
        library = dlopen("libcublas.so", RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            c.why_not = format_text("cuBLAS not found ({}): {}", kCublasSoname, first_error);
            return;
        }
    }
    CublasApi& api = c.api;
    if (!resolve(library, "cublasCreate_v2", api.create, c.why_not) ||
        !resolve(library, "cublasDestroy_v2", api.destroy, c.why_not) ||
        !resolve(library, "cublasSetStream_v2", api.set_stream, c.why_not) ||
        !resolve(library, "cublasSetMathMode", api.set_math_mode, c.why_not) ||
        !resolve(library, "cublasGetStatusString", api.status_string, c.why_not) ||
        !resolve(library, "cublasSgemm_v2", api.sgemm, c.why_not) ||
        !resolve(library, "cublasDgemm_v2", api.dgemm, c.why_not) ||
        !resolve(library, "cublasSgemmStridedBatched", api.sgemm_batched, c.why_not) ||
        !resolve(library, "cublasDgemmStridedBatched", api.dgemm_batched, c.why_not) ||
        !resolve(library, "cublasGemmEx", api.gemm_ex, c.why_not) ||
        !resolve(library, "cublasGemmStridedBatchedEx", api.gemm_batched_ex, c.why_not))
        return;

    if (const cublasStatus_t status = api.create(&c.handle); status != CUBLAS_STATUS_SUCCESS) {
        c.why_not = format_text("cublasCreate failed: {}", status_text(api, status));
        c.handle = nullptr;
        return;
    }
    // Pedantic math: FP32 stays FP32 and FP64 stays FP64. The default mode lets cuBLAS
    // use TF32 tensor cores for float when NVIDIA_TF32_OVERRIDE or a future default says
    // so, or the BF16x9 / fixed-point emulations (CUBLAS_EMULATION_STRATEGY); each is
    // faster and less exact, and then the line would no longer be the same arithmetic as
    // our kernels, nor a trustworthy reference for checking them.
    if (const cublasStatus_t status = api.set_math_mode(c.handle, CUBLAS_PEDANTIC_MATH);
        status != CUBLAS_STATUS_SUCCESS)
        c.why_not = format_text("cublasSetMathMode(CUBLAS_PEDANTIC_MATH) failed: {}", status_text(api, status));
}

// The loaded library with its mutex held, or an exception saying why there is none.
std::unique_lock<std::mutex> ready(Cublas& c) {
    std::unique_lock lock(c.mutex);
    if (!c.tried) load(c);
    if (!c.why_not.empty()) throw std::runtime_error(c.why_not);
    return lock;
}

void check(const CublasApi& api, cublasStatus_t status, const char* call) {
    if (status != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(format_text("{}: {}", call, status_text(api, status)));
}

// cuBLAS is column-major; our matrices are row-major. A row-major M×N matrix is the same
// memory as a column-major N×M matrix, its transpose. So instead of C = A·B we ask cuBLAS
// for Cᵀ = Bᵀ·Aᵀ (N×M = N×K · K×M) without any transposition flags: B goes first as an
// N×K column-major matrix with leading dimension N, A second with leading dimension K, and
// the N×M result with leading dimension N is exactly row-major C.
template <typename T>
void matmul(const model::Problem& p, const T* a, const T* b, T* c, cudaStream_t stream) {
    constexpr bool single = std::is_same_v<T, float>;
    Cublas& cb = cublas();
    const auto lock = ready(cb);
    check(cb.api, cb.api.set_stream(cb.handle, stream), "cublasSetStream");
    const T one = 1;
    const T zero = 0;
    const int m = static_cast<int>(p.m);
    const int n = static_cast<int>(p.n);
    const int k = static_cast<int>(p.k);
    if (p.batch == 1) {
        const auto gemm = [&] {
            if constexpr (single) return cb.api.sgemm;
            else return cb.api.dgemm;
        }();
        check(cb.api, gemm(cb.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n),
              single ? "cublasSgemm" : "cublasDgemm");
        return;
    }
    const auto gemm_batched = [&] {
        if constexpr (single) return cb.api.sgemm_batched;
        else return cb.api.dgemm_batched;
    }();
    check(cb.api,
          gemm_batched(cb.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, p.b_elements(), a, k,
                       p.a_elements(), &zero, c, n, p.c_elements(), static_cast<int>(p.batch)),
          single ? "cublasSgemmStridedBatched" : "cublasDgemmStridedBatched");
}

// BF16 or FP16 in and out, FP32 accumulation (CUBLAS_COMPUTE_32F), the same row-major trick. In
// cuBLAS's default math mode for this one call: pedantic math is for FP32 and FP64, where it keeps
// TF32 and emulations out; for 16-bit inputs the tensor cores are the prescribed arithmetic, and
// the default mode is what cuBLAS's and torch's own BF16 figures use. Pedantic comes back after.
// With one flag more: no reduction in the output type. Where cuBLAS splits K (small M and N, long
// K) it may otherwise add the parts' sums in BF16 or FP16, not FP32, and then misses the bound that
// FP32 accumulation earns (the case that showed it: docs/notes/measurement.md). TileScope's
// kernels sum in FP32 all the way, so the line
// they are measured against does too; where cuBLAS does not split K the flag changes nothing.
void matmul_half(const model::Problem& p, const void* a, const void* b, void* c, cudaStream_t stream) {
    Cublas& cb = cublas();
    const auto lock = ready(cb);
    check(cb.api, cb.api.set_stream(cb.handle, stream), "cublasSetStream");
    const cudaDataType type = p.dtype == model::Dtype::BFloat16 ? CUDA_R_16BF : CUDA_R_16F;
    const float one = 1.0f, zero = 0.0f;
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
    constexpr auto kHalfMath = static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION);
    check(cb.api, cb.api.set_math_mode(cb.handle, kHalfMath),
          "cublasSetMathMode(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)");
    const cublasStatus_t status =
        p.batch == 1 ? cb.api.gemm_ex(cb.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, type, n, a, type, k, &zero,
                                      c, type, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT)
                     : cb.api.gemm_batched_ex(cb.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, type, n,
                                              p.b_elements(), a, type, k, p.a_elements(), &zero, c, type, n,
                                              p.c_elements(), static_cast<int>(p.batch), CUBLAS_COMPUTE_32F,
                                              CUBLAS_GEMM_DEFAULT);
    check(cb.api, cb.api.set_math_mode(cb.handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode(CUBLAS_PEDANTIC_MATH)");
    check(cb.api, status, p.batch == 1 ? "cublasGemmEx" : "cublasGemmStridedBatchedEx");
}

}  // namespace

std::optional<std::string> cublas_unavailable(model::Dtype dtype) {
    if (model::is_fp8(dtype)) return cublaslt_unavailable();  // FP8's cuBLAS line is cuBLASLt's
    if (dtype == model::Dtype::Int32)
        return std::string("cuBLAS has no GEMM for int32 inputs (its integer GEMM takes 8-bit inputs), so there is "
                           "no cuBLAS line for int32");
    Cublas& c = cublas();
    std::lock_guard lock(c.mutex);
    if (!c.tried) load(c);
    if (!c.why_not.empty()) return c.why_not;
    return std::nullopt;
}

void release_cublas() {
    Cublas& c = cublas();
    std::lock_guard lock(c.mutex);
    if (c.handle && c.api.destroy) c.api.destroy(c.handle);
    c.handle = nullptr;
    c.tried = false;
    c.why_not.clear();
}

void cublas_matmul(const model::Problem& p, const float* a, const float* b, float* c, cudaStream_t stream) {
    matmul(p, a, b, c, stream);
}

void cublas_matmul(const model::Problem& p, const double* a, const double* b, double* c, cudaStream_t stream) {
    matmul(p, a, b, c, stream);
}

void cublas_matmul_half(const model::Problem& p, const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* c,
                        cudaStream_t stream) {
    if (!model::is_half_precision(p.dtype)) throw std::invalid_argument("cublas_matmul_half: not a 16-bit type");
    matmul_half(p, a, b, c, stream);
}

}  // namespace ts::gpu
