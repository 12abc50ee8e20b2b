// block_choices.hpp — the block shapes the lab offers, in the occupancy panel and the tuning
// view alike: those of the tuning sweep, plus widths of 64 and heights of 32 (64×32 is over the
// 1024-thread limit), which a student will try and which the model must explain rather than hide.
#pragma once

namespace ts::views {

inline constexpr int kBlockX[] = {8, 16, 32, 64};
inline constexpr int kBlockY[] = {1, 2, 4, 8, 16, 32};

}  // namespace ts::views
