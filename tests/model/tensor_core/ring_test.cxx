// The ring of stages run through a simulated pair of mbarriers per stage under many interleavings:
// with the model's phase bits (model::stage_step, and model::RingCursor walking the same way) no
// consumer reads a stage before its copy landed and no copy overwrites a stage still in use; with
// the bits the other way round, the simulation catches it.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "model/tensor_core/pipeline.hpp"
#include "test_shapes.hpp"

namespace ts::model {
namespace {

using namespace test_shapes;

TEST(TcPipeline, StageStepsWorkedByHand) {
    const WgmmaShape s = kWarpSpecialized;  // 4 stages
    // K steps 0–3: round 0, stages 0–3; consumers wait for parity 0 (the first fill), the
    // producer "waits" for parity 1, the phase before the first: it does not wait.
    for (int k = 0; k < 4; ++k) {
        const StageStep st = stage_step(s, k);
        EXPECT_EQ(st.stage, k);
        EXPECT_EQ(st.full_parity, 0);
        EXPECT_EQ(st.empty_parity, 1);
        EXPECT_FALSE(st.producer_waits);
        EXPECT_EQ(st.expect_tx, 49152);
    }
    // K step 5: stage 1 again, its second fill (round 1): full parity 1; the producer waits for
    // the consumers' first release of stage 1, phase 0 of empty[1].
    const StageStep five = stage_step(s, 5);
    EXPECT_EQ(five.stage, 1);
    EXPECT_EQ(five.round, 1);
    EXPECT_EQ(five.full_parity, 1);
    EXPECT_EQ(five.empty_parity, 0);
    EXPECT_TRUE(five.producer_waits);
    // K step 10: stage 2, round 2: parities back to 0 and 1.
    EXPECT_EQ(stage_step(s, 10).full_parity, 0);
    EXPECT_EQ(stage_step(s, 10).empty_parity, 1);
}

TEST(TcPipeline, RingCursorWalksAsStageStepSays) {
    for (const WgmmaShape s : {kWarpSpecialized, kTcTunedCandidates[1], kTcTunedCandidates[4]}) {
        RingCursor cursor;
        for (int k = 0; k < 3 * s.stages + 2; ++k, cursor.advance(s)) {
            const StageStep st = stage_step(s, k);
            ASSERT_EQ(cursor.stage, st.stage) << "stages " << s.stages << ", K step " << k;
            ASSERT_EQ(cursor.full_parity, st.full_parity) << "stages " << s.stages << ", K step " << k;
            ASSERT_EQ(cursor.empty_parity(), st.empty_parity) << "stages " << s.stages << ", K step " << k;
        }
    }
}

// An mbarrier as the PTX ISA describes it: phases 0, 1, 2, ...; the current one is incomplete,
// all before it complete. A phase completes when the expected arrivals are in and the transaction
// bytes armed by arrive.expect_tx have all landed. try_wait.parity p may name the current phase
// (false) or the one before it (true); the current phase's parity is `completed & 1`.
struct Mbarrier {
    int expected = 1;
    int arrived = 0;
    int tx_owed = 0;
    int completed = 0;  // phases completed so far = the current phase's number
    bool try_wait_parity(int p) const { return p != (completed & 1); }
    void arrive(int expect_tx = 0) {
        tx_owed += expect_tx;
        ++arrived;
        complete_if_done();
    }
    void complete_tx(int bytes) {
        tx_owed -= bytes;
        complete_if_done();
    }
    void complete_if_done() {
        if (arrived == expected && tx_owed == 0) {
            arrived = 0;
            ++completed;
        }
    }
};

struct ParityRule {
    int (*full)(StageStep);
    int (*empty)(StageStep);
};

// Runs K steps through the ring, one random move at a time: the producer arming a stage and
// issuing its copies, the copies of the oldest armed step landing (TMA's bytes come later than the
// arrive.expect_tx), a consumer passing its wait on full and starting to read, a consumer done
// (after wgmma.wait_group) releasing the stage. Returns false at the first hazard: a consumer
// reading a stage that does not hold its own K step, or the producer refilling a stage that a
// consumer has not finished with. Deadlock (nobody can move with work left) is a failure too.
bool run_ring(WgmmaShape s, int k_steps, unsigned seed, ParityRule rule) {
    std::vector<Mbarrier> full(s.stages), empty(s.stages);
    for (auto& b : empty) b.expected = s.consumers;
    std::vector<int> landed_step(s.stages, -1);  // the K step whose data is in the stage
    std::vector<int> in_flight;                  // K steps armed whose bytes have not landed
    std::vector<int> consumer_step(s.consumers, 0);
    std::vector<bool> reading(s.consumers, false);
    int producer_step = 0;
    std::mt19937 random(seed);
    for (int moves = 0; moves < 100000; ++moves) {
        bool done = producer_step == k_steps && in_flight.empty();
        for (int c : consumer_step) done = done && c == k_steps;
        if (done) return true;
        std::vector<int> ready;  // 0: producer, 1: a landing, 2 + c: consumer c
        if (producer_step < k_steps &&
            empty[producer_step % s.stages].try_wait_parity(rule.empty(stage_step(s, producer_step))))
            ready.push_back(0);
        if (!in_flight.empty()) ready.push_back(1);
        for (int c = 0; c < s.consumers; ++c) {
            const int k = consumer_step[c];
            if (reading[c] || (k < k_steps && full[k % s.stages].try_wait_parity(rule.full(stage_step(s, k)))))
                ready.push_back(2 + c);
        }
        if (ready.empty()) return false;  // deadlock
        const int who = ready[random() % ready.size()];
        if (who == 0) {
            // Every consumer must be done with the K step this stage held before.
            for (int c = 0; c < s.consumers; ++c)
                if (consumer_step[c] <= producer_step - s.stages) return false;
            full[producer_step % s.stages].arrive(expect_tx_bytes(s));
            in_flight.push_back(producer_step++);
        } else if (who == 1) {
            const int k = in_flight.front();
            in_flight.erase(in_flight.begin());
            landed_step[k % s.stages] = k;
            full[k % s.stages].complete_tx(expect_tx_bytes(s));
        } else {
            const int c = who - 2, k = consumer_step[c], stage = k % s.stages;
            if (!reading[c]) {
                if (landed_step[stage] != k) return false;  // the data of another K step
                reading[c] = true;                          // ... wgmmas issued ...
            } else {
                reading[c] = false;  // wgmma.wait_group(0): done with the stage
                empty[stage].arrive();
                consumer_step[c] += 1;
            }
        }
    }
    return false;
}

TEST(TcPipeline, PhaseBitsKeepTheRingSafeUnderEveryInterleaving) {
    const ParityRule model{[](StageStep st) { return st.full_parity; }, [](StageStep st) { return st.empty_parity; }};
    for (const WgmmaShape& s : kShapes)
        for (int k_steps : {1, 3, s.stages, 2 * s.stages + 1, 40})
            for (unsigned seed = 0; seed < 50; ++seed)
                ASSERT_TRUE(run_ring(s, k_steps, seed, model))
                    << "stages " << s.stages << " k steps " << k_steps << " seed " << seed;
}

// Checks that the simulation can fail: a producer that waits on empty with the consumers' parity
// (as if the stages started full) never starts; consumers waiting on the wrong parity of full read
// a stage before its data lands.
TEST(TcPipeline, WrongPhaseBitsAreCaught) {
    const ParityRule producer_wrong{[](StageStep st) { return st.full_parity; },
                                    [](StageStep st) { return st.full_parity; }};
    const ParityRule consumer_wrong{[](StageStep st) { return st.full_parity ^ 1; },
                                    [](StageStep st) { return st.empty_parity; }};
    EXPECT_FALSE(run_ring(kWarpSpecialized, 12, 1, producer_wrong));
    int caught = 0;
    for (unsigned seed = 0; seed < 20; ++seed) caught += !run_ring(kWarpSpecialized, 12, seed, consumer_wrong);
    EXPECT_EQ(caught, 20);
}

}  // namespace
}  // namespace ts::model
