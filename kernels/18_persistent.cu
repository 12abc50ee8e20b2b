// 18 persistent: 17's producer and consumers on a persistent grid of 2-CTA clusters that share B
// by TMA multicast, tiles in an L2-friendly order, C out through shared memory by TMA stores, in
// 18's shape (model::kPersistentShape: 128×256 tiles, three stages of 48 KiB). What it teaches and
// what changed from 17_warp_specialized.cu: see 18_persistent.cuh, which 19_tc_tuned.cu shares.
#include "kernels/18_persistent.cuh"

namespace ts::kernels {

namespace {
struct PersistentShape {
    static constexpr model::WgmmaShape value = model::kPersistentShape;
};
template <typename T>
using Rung = persistent::PersistentRung<PersistentShape>::Of<T>;
}

cudaError_t launch_persistent(const model::KernelConfig& config, const model::Problem& problem,
                              Operands<std::uint16_t> operands, cudaStream_t stream) {
    return launch_by_half_type<Rung>(config, problem, operands, stream);
}

TcKernelHandle persistent_handle(const model::Problem& problem) { return handle_by_half_type<Rung>(problem); }

}  // namespace ts::kernels
