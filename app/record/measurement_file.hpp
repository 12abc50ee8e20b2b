// measurement_file.hpp — measured results as data: what `tilescope bench` writes (JSON and CSV)
// and what the app loads to show real measurements on a machine without a GPU.
// No CUDA, no ImGui: plain C++ and nlohmann-json.
//
// A measurement is one run of the tool: metadata (GPU, versions, date, command line, how it
// was timed) and one point per kernel × size × dtype measured. The JSON holds everything,
// every sample included; the CSV holds one row per point with the same other columns, so
//   pandas.read_csv("run.csv")
//   pandas.json_normalize(json.load(open("run.json"))["points"])
// give the same table (the JSON's adds the list column samples_ms).
//
// The JSON is written one point per line. A compact one (`tilescope-cli compact`, or
// `bench --json-samples none`) leaves samples_ms out and keeps the count in "samples": what
// the app shows (median, p20–p80, noise, count) is all there, at a few hundred bytes a point
// instead of up to 10 000 numbers. Both kinds load, pretty-printed or not.
//
// Numbers carry their unit in their name (_ms, _bytes, _GBps, _pct). Values that do not
// apply are null in JSON and empty in CSV: the timing of a failed point, the model traffic
// of cuBLAS (not modelled), the CPU time when none was taken.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ts::record {

inline constexpr std::string_view kFormat = "tilescope-bench";
inline constexpr int kFormatVersion = 1;

struct Device {
    std::string name;
    std::string compute_capability;  // "9.0"
    int sm_count = 0;
    std::int64_t global_memory_bytes = 0;
    std::int64_t l2_cache_bytes = 0;
    std::string driver_cuda_version;   // the newest CUDA the driver supports, "13.0"
    std::string runtime_cuda_version;  // the CUDA runtime TileScope was built with
    std::optional<double> clock_mhz;   // peak SM clock, when the driver says
    std::optional<double> memory_clock_mhz;
    std::optional<int> memory_bus_bits;
    std::string host{};  // where the GPU was, when not on this machine ("gpu1"); empty otherwise
};

// How every point was timed (app/gpu/measure.hpp explains the engine).
struct Timing {
    std::string mode = "cold";  // "cold": L2 flushed before each sample; "hot": back to back
    int warmup_launches = 2;
    int min_samples = 10;
    bool adaptive = true;
    double max_noise_pct = 0.5;
    double min_time_s = 0.5;
    double budget_s = 3.0;
    int max_samples = 10000;
    int end_to_end_runs = 0;
    double settle_s = 0.0;      // untimed launches after the warm-up, in seconds (0 before TileScope had them)
};

struct Meta {
    std::string tilescope_version;
    std::string date_utc;       // ISO 8601, "YYYY-MM-DDThh:mm:ssZ"
    std::string command_line;
    Device device;
    Timing timing;
};

struct Point {
    int index = 0;
    std::string kernel;         // "naive", "tiled", "cublas", ...
    std::string config;         // "naive 32×32", "tiled T=16": how the app names it
    std::optional<int> block_x; // naive and 1-D kernels
    std::optional<int> block_y; // 2-D naive kernels
    std::optional<int> tile;    // tiled kernel
    // A tuned rung (tuned, tc-tuned) asked for the table's pick: the candidate that ran. Null
    // otherwise, and absent from measurements made before TileScope kept it (their JSON has no key,
    // their CSV no column).
    std::optional<int> ran_candidate;
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    std::int64_t batch = 1;
    std::string dtype;          // "float", "double", "int32"
    std::string mode = "cold";  // "cold" or "hot"
    bool ok = false;            // false: `error` says why and no timing below is meaningful
    std::string error;

    // Kernel time, CUDA events, one per launch. A CSV or a compact JSON keeps only their
    // count: read from one, samples_ms is empty and samples_not_kept says how many there were
    // (sample_count() counts either way).
    std::vector<double> samples_ms;
    std::int64_t samples_not_kept = 0;
    double median_ms = 0.0;
    double p20_ms = 0.0;
    double p80_ms = 0.0;
    double mean_ms = 0.0;
    double min_ms = 0.0;
    double max_ms = 0.0;
    double noise_pct = 0.0;     // 100 · stdev / mean of the samples
    std::string stop_reason;    // "noise", "min-time", "budget", "max-samples", "count"
    double gflops = 0.0;        // 2·M·N·K·batch / median
    // The model's global-memory bytes (requested, before caches) over the median.
    std::optional<std::int64_t> model_traffic_bytes;
    std::optional<double> model_bandwidth_GBps;
    // Host clock around cudaMalloc + copies + launch + copy back: never kernel time.
    std::optional<double> end_to_end_ms;
    // While the samples ran (NVML, gpu/clock_watch.hpp): the SM clock in MHz (weighted mean of one
    // reading per batch), the board's power in W, and what held the clock back ("the power cap";
    // empty: nothing). Null where not read, and absent from measurements made before TileScope read
    // them (their JSON has no key, their CSV no column).
    std::optional<int> sm_clock_mhz;
    std::optional<double> power_w;
    std::optional<std::string> clock_limits;
    // On a GPU elsewhere or shared (gpu/gpu_queue.hpp): the server's name (null on this machine);
    // the seconds the request waited for its turn at the GPU; whether another process used the
    // GPU while it ran ("GPU shared", from NVML), and which. Absent where not known, and from
    // measurements made before TileScope kept them.
    std::optional<std::string> gpu_host;
    std::optional<double> gpu_wait_s;
    std::optional<bool> gpu_shared;
    std::optional<std::string> gpu_shared_note;
    // Energy (gpu/energy.hpp), from launches back to back after the samples: joules per matmul,
    // the work one joule buys (TFLOP/J), the board's mean power and SM clock while they ran, and how
    // it was measured (launches, seconds, the counter's step; a warning where it fell short). Absent
    // where not measured, and from measurements made before TileScope measured it.
    std::optional<double> joules_per_matmul;
    std::optional<double> tflop_per_j;
    std::optional<double> avg_watts;
    std::optional<int> energy_sm_clock_mhz;
    std::optional<std::string> energy_note;
    // FP8 points (dtype "fp8"): how A and B were scaled ("tensor" or "block") and the GPU's time to
    // quantise them from FP32 (ms, apart from the matmul's). Absent for other types.
    std::optional<std::string> fp8_scaling;
    std::optional<double> quantize_ms;
    // FP32, BF16, FP16 and FP8 points, where checked (gpu::has_error_vs_fp64): C against the exact
    // product in FP64 of the FP32 values their inputs were made from, the largest relative error and
    // the RMS one. Absent for other types and in measurements made before TileScope measured it for
    // FP32 and the 16-bit types.
    std::optional<double> error_vs_fp64_max;
    std::optional<double> error_vs_fp64_rms;

    bool checked = false;
    bool check_passed = false;
    std::optional<double> max_rel_error;
    std::string check_summary;

    // The single-threaded i-j-k loop on the CPU (app/gpu/cpu_baseline.hpp).
    std::optional<double> cpu_triple_loop_ms;
    std::optional<bool> cpu_is_estimate;
    std::string cpu_estimated_from;  // "1024x1024x1024" when an estimate, else empty
};

// How many samples were taken for `point`, whether it holds them or only their count.
std::int64_t sample_count(const Point& point);

struct Measurement {
    Meta meta;
    std::vector<Point> points;
    bool from_csv = false;  // a CSV holds the points alone: no GPU, date or samples
};

// ---- JSON -----------------------------------------------------------------------------
// Whether the JSON lists every sample (what `bench --json` writes by default) or only counts
// them ("samples": N, no samples_ms): a compact measurement, as committed under assets/.
enum class SampleList { All, CountOnly };
// One line for the format and metadata, then one line per point. A point that holds only
// its count is written without samples_ms either way.
std::string to_json(const Measurement& measurement, SampleList samples = SampleList::All);
// The same measurement with its sample lists dropped and their counts kept (a CSV's points,
// which hold none, are unchanged).
Measurement without_samples(Measurement measurement);
// The measurement in `text`, or an error that starts with `source` ("run.json:12:5: ...").
std::variant<Measurement, std::string> parse_json(std::string_view text, std::string_view source);
// A measurement from `file`: the JSON above, or the CSV below (told apart by their content).
// A CSV that `Save CSV` of a plot wrote is refused with the reason: it holds a plot's
// series, not measurements.
std::variant<Measurement, std::string> load(const std::filesystem::path& file);

// ---- CSV ------------------------------------------------------------------------------
// The column names, in order: the JSON point's keys without samples_ms.
const std::vector<std::string_view>& csv_columns();
// Header and one row per point; text fields are quoted when they hold , " or a newline.
std::string to_csv(const Measurement& measurement);
// The points of a CSV that to_csv (`tilescope bench --csv`) wrote; columns may come in any
// order and extra ones are ignored. Errors start with `source` and the line ("run.csv:7: ...").
std::variant<Measurement, std::string> parse_csv(std::string_view text, std::string_view source);

// One point as one line of JSON (the session journal's lines), and back.
std::string point_to_line(const Point& point);
std::variant<Point, std::string> parse_point_line(std::string_view line, std::string_view source);

// Writes `text` to `file`; nullopt on success, otherwise why not.
std::optional<std::string> save_text(const std::filesystem::path& file, std::string_view text);

}  // namespace ts::record
