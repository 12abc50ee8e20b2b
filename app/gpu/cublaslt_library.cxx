#include "cublaslt_library.hpp"

#include <cublasLt.h>  // types and declarations only: every function comes from dlsym
#include <dlfcn.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "model/format.hpp"

namespace ts::gpu {

// A named namespace, not an anonymous one: unity builds compile this file with cublas_library.cxx,
// whose helpers have the same names.
namespace cublaslt_detail {

using model::format_text;

constexpr const char* kCublasLtSoname = "libcublasLt.so.13";
// The workspace cuBLASLt may use for split-K and the like; 32 MiB is what its samples and
// PyTorch give Hopper.
constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;

struct CublasLtApi {
    decltype(&::cublasLtCreate) create = nullptr;
    decltype(&::cublasLtDestroy) destroy = nullptr;
    decltype(&::cublasLtGetStatusString) status_string = nullptr;
    decltype(&::cublasLtMatmulDescCreate) desc_create = nullptr;
    decltype(&::cublasLtMatmulDescDestroy) desc_destroy = nullptr;
    decltype(&::cublasLtMatmulDescSetAttribute) desc_set = nullptr;
    decltype(&::cublasLtMatrixLayoutCreate) layout_create = nullptr;
    decltype(&::cublasLtMatrixLayoutDestroy) layout_destroy = nullptr;
    decltype(&::cublasLtMatrixLayoutSetAttribute) layout_set = nullptr;
    decltype(&::cublasLtMatmulPreferenceCreate) preference_create = nullptr;
    decltype(&::cublasLtMatmulPreferenceDestroy) preference_destroy = nullptr;
    decltype(&::cublasLtMatmulPreferenceSetAttribute) preference_set = nullptr;
    decltype(&::cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
    decltype(&::cublasLtMatmul) matmul = nullptr;
};

// The descriptors and the algorithm of one problem, kept while the same problem comes again, so
// a timed launch is one cublasLtMatmul and nothing more on the host.
struct Plan {
    model::Problem problem;
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulHeuristicResult_t heuristic{};
    // cuBLASLt computes Cᵀ = B·Aᵀ (column-major), its A our B; or (block scales, where it has no
    // algorithm for that) D = A·Bᵀ with our A as its A, D row-major (plan_for).
    bool swapped = true;
};

// One per process, as cuBLAS's: the library, one handle and the workspace, made on first use and
// given back by release_cublaslt() while CUDA is still up.
struct CublasLt {
    std::mutex mutex;
    bool tried = false;
    std::string why_not;
    CublasLtApi api;
    cublasLtHandle_t handle = nullptr;
    void* workspace = nullptr;
    std::unique_ptr<Plan> plan;
};

CublasLt& cublaslt() {
    static CublasLt instance;
    return instance;
}

std::string status_text(const CublasLtApi& api, cublasStatus_t status) {
    return format_text("{} ({})", api.status_string ? api.status_string(status) : "unknown status",
                       static_cast<int>(status));
}

void check(const CublasLtApi& api, cublasStatus_t status, const char* call) {
    if (status != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(format_text("{}: {}", call, status_text(api, status)));
}

template <typename Function>
bool resolve(void* library, const char* name, Function& function, std::string& why_not) {
    function = reinterpret_cast<Function>(dlsym(library, name));
    if (!function) why_not = format_text("cuBLASLt ({}) lacks {}: {}", kCublasLtSoname, name, dlerror());
    return function != nullptr;
}

// Loads the library and resolves its functions; on failure leaves the reason in why_not. The
// handle is made at the first matmul or heuristic, under a CUDA context. Called with the mutex held.
void load(CublasLt& lt) {
    lt.tried = true;
    void* library = dlopen(kCublasLtSoname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const std::string first_error = dlerror();
        // A toolkit installed without its versioned link still has the development name.
        library = dlopen("libcublasLt.so", RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            lt.why_not = format_text("cuBLASLt not found ({}): {}", kCublasLtSoname, first_error);
            return;
        }
    }
    CublasLtApi& api = lt.api;
    if (!resolve(library, "cublasLtCreate", api.create, lt.why_not) ||
        !resolve(library, "cublasLtDestroy", api.destroy, lt.why_not) ||
        !resolve(library, "cublasLtGetStatusString", api.status_string, lt.why_not) ||
        !resolve(library, "cublasLtMatmulDescCreate", api.desc_create, lt.why_not) ||
        !resolve(library, "cublasLtMatmulDescDestroy", api.desc_destroy, lt.why_not) ||
        !resolve(library, "cublasLtMatmulDescSetAttribute", api.desc_set, lt.why_not) ||
        !resolve(library, "cublasLtMatrixLayoutCreate", api.layout_create, lt.why_not) ||
        !resolve(library, "cublasLtMatrixLayoutDestroy", api.layout_destroy, lt.why_not) ||
        !resolve(library, "cublasLtMatrixLayoutSetAttribute", api.layout_set, lt.why_not) ||
        !resolve(library, "cublasLtMatmulPreferenceCreate", api.preference_create, lt.why_not) ||
        !resolve(library, "cublasLtMatmulPreferenceDestroy", api.preference_destroy, lt.why_not) ||
        !resolve(library, "cublasLtMatmulPreferenceSetAttribute", api.preference_set, lt.why_not) ||
        !resolve(library, "cublasLtMatmulAlgoGetHeuristic", api.heuristic, lt.why_not) ||
        !resolve(library, "cublasLtMatmul", api.matmul, lt.why_not))
        return;
}

void destroy_plan(CublasLt& lt) {
    if (!lt.plan) return;
    Plan& p = *lt.plan;
    for (cublasLtMatrixLayout_t layout : {p.a, p.b, p.c})
        if (layout) lt.api.layout_destroy(layout);
    if (p.desc) lt.api.desc_destroy(p.desc);
    lt.plan.reset();
}

bool same_problem(const model::Problem& x, const model::Problem& y) {
    return x.m == y.m && x.n == y.n && x.k == y.k && x.batch == y.batch && x.dtype == y.dtype &&
           x.fp8_scaling == y.fp8_scaling;
}

// A column-major rows × cols layout of `type` with leading dimension `ld`, `batch` of them `stride`
// elements apart.
cublasLtMatrixLayout_t make_layout(const CublasLtApi& api, cudaDataType type, std::int64_t rows, std::int64_t cols,
                                   std::int64_t ld, std::int64_t batch, std::int64_t stride) {
    cublasLtMatrixLayout_t layout = nullptr;
    check(api, api.layout_create(&layout, type, static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols), ld),
          "cublasLtMatrixLayoutCreate");
    if (batch > 1) {
        const int count = static_cast<int>(batch);
        check(api, api.layout_set(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count),
              "cublasLtMatrixLayoutSetAttribute(BATCH_COUNT)");
        check(api, api.layout_set(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride),
              "cublasLtMatrixLayoutSetAttribute(STRIDED_BATCH_OFFSET)");
    }
    return layout;
}

// The workspace, made on first use. Mutex held.
void* workspace(CublasLt& lt) {
    if (!lt.workspace)
        if (const cudaError_t e = cudaMalloc(&lt.workspace, kWorkspaceBytes); e != cudaSuccess) {
            lt.workspace = nullptr;
            throw std::runtime_error(format_text("cudaMalloc of cuBLASLt's {} MiB workspace: {}", kWorkspaceBytes >> 20,
                                                 cudaGetErrorString(e)));
        }
    return lt.workspace;
}

// The descriptors of `plan` for one arrangement of the operands (Plan::swapped) and the
// heuristic's answer: its status, and in `found` whether it has an algorithm.
cublasStatus_t arrange(CublasLt& lt, Plan& plan, bool swapped, int& found) {
    const CublasLtApi& api = lt.api;
    const model::Problem& p = plan.problem;
    plan.swapped = swapped;
    check(api, api.desc_create(&plan.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
    // FP8 takes both operands K-major: the A of cuBLASLt transposed (TRANSA = T), its B as it is.
    const cublasOperation_t transpose = CUBLAS_OP_T, as_is = CUBLAS_OP_N;
    check(api, api.desc_set(plan.desc, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof transpose),
          "cublasLtMatmulDescSetAttribute(TRANSA)");
    check(api, api.desc_set(plan.desc, CUBLASLT_MATMUL_DESC_TRANSB, &as_is, sizeof as_is),
          "cublasLtMatmulDescSetAttribute(TRANSB)");
    if (p.fp8_scaling == model::Fp8Scaling::Block) {
        // Our A's scales are 1×128 (VEC128), our B's 128×128 blocks, whichever operand of
        // cuBLASLt each is.
        const cublasLtMatmulMatrixScale_t rows = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F;
        const cublasLtMatmulMatrixScale_t blocks = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
        check(api, api.desc_set(plan.desc, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, swapped ? &blocks : &rows, sizeof rows),
              "cublasLtMatmulDescSetAttribute(A_SCALE_MODE)");
        check(api, api.desc_set(plan.desc, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, swapped ? &rows : &blocks, sizeof rows),
              "cublasLtMatmulDescSetAttribute(B_SCALE_MODE)");
        // Block scales go to the heuristic with their pointers set, as NVIDIA's sample does: until the
        // matmul sets the operands' own, the workspace stands in (aligned, and never read here).
        void* stand_in = workspace(lt);
        check(api, api.desc_set(plan.desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &stand_in, sizeof stand_in),
              "cublasLtMatmulDescSetAttribute(A_SCALE_POINTER)");
        check(api, api.desc_set(plan.desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &stand_in, sizeof stand_in),
              "cublasLtMatmulDescSetAttribute(B_SCALE_POINTER)");
    }
    if (swapped) {
        // Cᵀ = B·Aᵀ in column-major terms: cuBLASLt's A is our B, its B our A, its D our C.
        plan.a = make_layout(api, CUDA_R_8F_E4M3, p.k, p.n, p.k, p.batch, p.n * p.k);
        plan.b = make_layout(api, CUDA_R_8F_E4M3, p.k, p.m, p.k, p.batch, p.m * p.k);
        plan.c = make_layout(api, CUDA_R_16BF, p.n, p.m, p.n, p.batch, p.m * p.n);
    } else {
        // D = A·Bᵀ with our A and B as they are; D (M×N) stored row by row is our C.
        plan.a = make_layout(api, CUDA_R_8F_E4M3, p.k, p.m, p.k, p.batch, p.m * p.k);
        plan.b = make_layout(api, CUDA_R_8F_E4M3, p.k, p.n, p.k, p.batch, p.n * p.k);
        plan.c = make_layout(api, CUDA_R_16BF, p.m, p.n, p.n, p.batch, p.m * p.n);
        const cublasLtOrder_t by_rows = CUBLASLT_ORDER_ROW;
        check(api, api.layout_set(plan.c, CUBLASLT_MATRIX_LAYOUT_ORDER, &by_rows, sizeof by_rows),
              "cublasLtMatrixLayoutSetAttribute(ORDER = ROW)");
    }
    cublasLtMatmulPreference_t preference = nullptr;
    check(api, api.preference_create(&preference), "cublasLtMatmulPreferenceCreate");
    const std::uint64_t workspace_bytes = kWorkspaceBytes;
    cublasStatus_t status = api.preference_set(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                               sizeof workspace_bytes);
    found = 0;
    if (status == CUBLAS_STATUS_SUCCESS)
        status = api.heuristic(lt.handle, plan.desc, plan.a, plan.b, plan.c, plan.c, preference, 1, &plan.heuristic,
                               &found);
    api.preference_destroy(preference);
    return status;
}

// The plan of `p`, made (descriptors and the heuristic's first algorithm) unless it is the one
// kept. Per tensor the operands are swapped (Plan::swapped); block scales try that first and then
// our A and B as cuBLASLt's, keeping the first arrangement its heuristic has an algorithm for.
// Throws std::runtime_error with cuBLASLt's words when neither has one. Mutex held.
Plan& plan_for(CublasLt& lt, const model::Problem& p) {
    if (lt.plan && same_problem(lt.plan->problem, p)) return *lt.plan;
    destroy_plan(lt);
    // The 128-block scales' layouts have no stride of their own: A's columns of M scales and the
    // rows of the result must start 16-byte aligned, so cuBLASLt asks M and N to be multiples of 4
    // (its docs, "Scaling factors layouts"). Said before anything is asked of the library.
    if (p.fp8_scaling == model::Fp8Scaling::Block && (p.m % 4 != 0 || p.n % 4 != 0))
        throw std::runtime_error(format_text("cuBLASLt's 128-block scales need M and N multiples of 4 (M = {}, N = {}); "
                                             "--scaling tensor takes any size",
                                             p.m, p.n));
    const CublasLtApi& api = lt.api;
    if (!lt.handle) check(api, api.create(&lt.handle), "cublasLtCreate");
    const std::string what = format_text("{} scaling, M = {}, N = {}, K = {}{}", model::fp8_scaling_name(p.fp8_scaling),
                                         p.m, p.n, p.k, p.batch > 1 ? format_text(", batch {}", p.batch) : "");
    std::string refusals;
    for (const bool swapped : {true, false}) {
        if (!swapped && p.fp8_scaling != model::Fp8Scaling::Block) break;
        lt.plan = std::make_unique<Plan>();
        lt.plan->problem = p;
        int found = 0;
        cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
        try {
            status = arrange(lt, *lt.plan, swapped, found);
        } catch (...) {
            destroy_plan(lt);
            throw;
        }
        if (status == CUBLAS_STATUS_SUCCESS && found > 0) return *lt.plan;
        destroy_plan(lt);
        const char* arrangement = p.fp8_scaling != model::Fp8Scaling::Block ? ""
                                  : swapped                                  ? " (our B as its A)"
                                                                             : "; our A as its A, D row-major";
        refusals += status != CUBLAS_STATUS_SUCCESS
                        ? format_text("{}cublasLtMatmulAlgoGetHeuristic returned {}", arrangement, status_text(api, status))
                        : format_text("{}its heuristic found no algorithm (FP8 takes K-major operands whose leading "
                                      "dimensions are multiples of 16 bytes)",
                                      arrangement);
    }
    throw std::runtime_error(format_text("cuBLASLt has no FP8 GEMM for {} here: {}", what, refusals));
}

// The loaded library with its mutex held, or an exception saying why there is none.
std::unique_lock<std::mutex> ready(CublasLt& lt) {
    std::unique_lock lock(lt.mutex);
    if (!lt.tried) load(lt);
    if (!lt.why_not.empty()) throw std::runtime_error(lt.why_not);
    return lock;
}

}  // namespace cublaslt_detail

std::optional<std::string> cublaslt_unavailable() {
    cublaslt_detail::CublasLt& lt = cublaslt_detail::cublaslt();
    std::lock_guard lock(lt.mutex);
    if (!lt.tried) cublaslt_detail::load(lt);
    if (!lt.why_not.empty()) return lt.why_not;
    return std::nullopt;
}

std::optional<std::string> cublaslt_fp8_unsupported(const model::Problem& p) {
    if (!model::is_fp8(p.dtype)) return "cuBLASLt's FP8 GEMM takes fp8 problems only";
    try {
        cublaslt_detail::CublasLt& lt = cublaslt_detail::cublaslt();
        const auto lock = cublaslt_detail::ready(lt);
        cublaslt_detail::plan_for(lt, p);
    } catch (const std::runtime_error& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

void release_cublaslt() {
    cublaslt_detail::CublasLt& lt = cublaslt_detail::cublaslt();
    std::lock_guard lock(lt.mutex);
    cublaslt_detail::destroy_plan(lt);
    if (lt.handle && lt.api.destroy) lt.api.destroy(lt.handle);
    lt.handle = nullptr;
    if (lt.workspace) cudaFree(lt.workspace);
    lt.workspace = nullptr;
    lt.tried = false;
    lt.why_not.clear();
}

void cublaslt_matmul_fp8(const model::Problem& p, const Fp8DeviceOperands& operands, cudaStream_t stream) {
    if (!model::is_fp8(p.dtype)) throw std::invalid_argument("cublaslt_matmul_fp8: not an fp8 problem");
    cublaslt_detail::CublasLt& lt = cublaslt_detail::cublaslt();
    const auto lock = cublaslt_detail::ready(lt);
    const cublaslt_detail::CublasLtApi& api = lt.api;
    cublaslt_detail::Plan& plan = cublaslt_detail::plan_for(lt, p);
    void* workspace = cublaslt_detail::workspace(lt);
    // Per tensor cuBLASLt's A is our B and its B our A, scales included (Plan::swapped).
    const void* a_scale = plan.swapped ? operands.b_scales : operands.a_scales;
    const void* b_scale = plan.swapped ? operands.a_scales : operands.b_scales;
    const void* a = plan.swapped ? static_cast<const void*>(operands.b) : operands.a;
    const void* b = plan.swapped ? static_cast<const void*>(operands.a) : operands.b;
    cublaslt_detail::check(api, api.desc_set(plan.desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &a_scale, sizeof a_scale),
          "cublasLtMatmulDescSetAttribute(A_SCALE_POINTER)");
    cublaslt_detail::check(api, api.desc_set(plan.desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &b_scale, sizeof b_scale),
          "cublasLtMatmulDescSetAttribute(B_SCALE_POINTER)");
    const float one = 1.0f, zero = 0.0f;
    cublaslt_detail::check(api,
          api.matmul(lt.handle, plan.desc, &one, a, plan.a, b, plan.b, &zero, operands.c, plan.c,
                     operands.c, plan.c, &plan.heuristic.algo, workspace, cublaslt_detail::kWorkspaceBytes, stream),
          "cublasLtMatmul (FP8 e4m3, BF16 out)");
}

}  // namespace ts::gpu
