// wire.cxx — the worker's messages to and from JSON (wire.hpp says what they are).
//
// [SECTION] Writer and Reader: walk a struct's fields() one way or the other; the Reader takes a
//           number only where its field holds it (whole_number, single_precision)
// [SECTION] fields() of each struct, from the kernel and the problem up to RunResult, with nested,
//           nested_list and maybe_nested for the structs inside
// [SECTION] Messages: encode_*, the handshake's version check (incompatibility), encode_message,
//           decode_message
// [SECTION] Frames on the pipe: whole reads and writes, compressed payloads (payload_of,
//           frame_bytes), write_frame, read_frame, FrameReader
#include "wire.hpp"

#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <zlib.h>
#include <type_traits>
#include <vector>

#include "model/format.hpp"
#include "record/trace_file.hpp"
#include "record/whole_number.hpp"

namespace ts::gpu::wire {

namespace {

using Json = nlohmann::json;

// ---- [SECTION] Writer and Reader ------------------------------------------------------------

// Each struct's fields are listed once, in a fields() function that a Writer (to JSON) and
// a Reader (from JSON) both walk. A Reader leaves a value as it is when its key is missing.
struct Writer {
    Json& json;
    template <typename T>
    void operator()(const char* key, const T& value) {
        if constexpr (std::is_enum_v<T>) json[key] = static_cast<int>(value);
        else json[key] = value;
    }
    template <typename T>
    void operator()(const char* key, const std::optional<T>& value) {
        if (value) (*this)(key, *value);
    }
};

// An integer field's value, when it is a whole number that T holds (record::whole_number): a
// worker's message with 1.3·10^34 as a block's height (the fuzzer sent one) is as broken as one
// with a key missing.
template <typename T>
T whole_number(const Json& value, const char* key) {
    if (const std::optional<T> number = record::whole_number<T>(value)) return *number;
    throw std::runtime_error(std::string("\"") + key + "\" is not a whole number that fits: " + value.dump());
}

// A float field's value: a double past FLT_MAX would not convert (undefined, as above).
float single_precision(const Json& value, const char* key) {
    const double number = value.get<double>();
    if (std::fabs(number) > static_cast<double>(std::numeric_limits<float>::max()))
        throw std::runtime_error(std::string("\"") + key + "\" is past a float's range: " + value.dump());
    return static_cast<float>(number);
}

struct Reader {
    const Json& json;
    template <typename T>
    void operator()(const char* key, T& value) {
        const auto it = json.find(key);
        if (it == json.end() || it->is_null()) return;
        if constexpr (std::is_enum_v<T>) value = static_cast<T>(whole_number<int>(*it, key));
        else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) value = whole_number<T>(*it, key);
        else if constexpr (std::is_same_v<T, float>) value = single_precision(*it, key);
        else value = it->get<T>();
    }
    template <typename T>
    void operator()(const char* key, std::vector<T>& values) requires std::is_integral_v<T> {
        const auto it = json.find(key);
        if (it == json.end() || it->is_null()) return;
        if (!it->is_array()) throw std::runtime_error(std::string("\"") + key + "\" is not a list");
        values.clear();
        for (const Json& element : *it) values.push_back(whole_number<T>(element, key));
    }
    template <typename T>
    void operator()(const char* key, std::optional<T>& value) {
        if (json.contains(key) && !json.at(key).is_null()) (*this)(key, value.emplace());
    }
};

template <typename Io, typename Kernel>
void fields(Io& io, Kernel& k) requires std::is_same_v<std::remove_const_t<Kernel>, model::KernelConfig> {
    io("kind", k.kind);
    io("block_x", k.block_x);
    io("block_y", k.block_y);
    io("tile", k.tile);
    io("variant", k.variant);
}

template <typename Io, typename Problem>
void fields(Io& io, Problem& p) requires std::is_same_v<std::remove_const_t<Problem>, model::Problem> {
    io("m", p.m);
    io("n", p.n);
    io("k", p.k);
    io("batch", p.batch);
    io("dtype", p.dtype);
    io("fp8_scaling", p.fp8_scaling);
}

// ---- [SECTION] fields() of each struct -------------------------------------------------------

// A struct as a JSON object of its fields, and back. fields() is found where it is called, by
// the Writer's and the Reader's namespace, so the structs below can use these.
template <typename T>
Json to_json(const T& value) {
    Json json = Json::object();
    Writer writer{json};
    fields(writer, value);
    return json;
}

template <typename T>
void read_json(const Json& json, T& value) {
    Reader reader{json};
    fields(reader, value);
}

// A nested struct: an object of its own under `key`.
template <typename Io, typename T>
void nested(Io& io, const char* key, T& value) {
    if constexpr (std::is_same_v<Io, Writer>) {
        io.json[key] = to_json(value);
    } else {
        if (!io.json.contains(key)) throw std::runtime_error(std::string("missing \"") + key + "\"");
        read_json(io.json.at(key), value);
    }
}

template <typename Io, typename Launch>
void fields(Io& io, Launch& l) requires std::is_same_v<std::remove_const_t<Launch>, model::LaunchExpressions> {
    io("grid_x", l.grid_x);
    io("grid_y", l.grid_y);
    io("block_x", l.block_x);
    io("block_y", l.block_y);
    io("shared", l.shared);
}

template <typename Io, typename Shape>
void fields(Io& io, Shape& s) requires std::is_same_v<std::remove_const_t<Shape>, model::UserLaunchShape> {
    io("grid_x", s.grid_x);
    io("grid_y", s.grid_y);
    io("block_x", s.block_x);
    io("block_y", s.block_y);
    io("shared_bytes", s.shared_bytes);
}

template <typename Io, typename Source>
void fields(Io& io, Source& u) requires std::is_same_v<std::remove_const_t<Source>, UserKernelSource> {
    io("name", u.name);
    io("source", u.source);
    nested(io, "launch", u.launch);
    io("compile_limit_s", u.compile_limit_s);
    io("arch", u.arch);
}

template <typename Io, typename Diagnostic>
void fields(Io& io, Diagnostic& d) requires std::is_same_v<std::remove_const_t<Diagnostic>, model::Diagnostic> {
    io("line", d.line);
    io("column", d.column);
    io("severity", d.severity);
    io("message", d.message);
}

template <typename Io, typename Clocks>
void fields(Io& io, Clocks& c) requires std::is_same_v<std::remove_const_t<Clocks>, ClockSummary> {
    io("readings", c.readings);
    io("mean_sm_mhz", c.mean_sm_mhz);
    io("min_sm_mhz", c.min_sm_mhz);
    io("max_sm_mhz", c.max_sm_mhz);
    io("mean_power_w", c.mean_power_w);
    io("limits", c.limits);
    io("unavailable", c.unavailable);
}

template <typename Io, typename Energy>
void fields(Io& io, Energy& e) requires std::is_same_v<std::remove_const_t<Energy>, EnergySummary> {
    io("measured", e.measured);
    io("unavailable", e.unavailable);
    io("launches", e.launches);
    io("joules", e.joules);
    io("gpu_seconds", e.gpu_seconds);
    io("step_joules", e.step_joules);
    io("short_of_steps", e.short_of_steps);
    io("mean_sm_mhz", e.mean_sm_mhz);
    io("limits", e.limits);
}

template <typename Io, typename Request>
void fields(Io& io, Request& r) requires std::is_same_v<std::remove_const_t<Request>, RunRequest> {
    io("kind", r.kind);
    nested(io, "kernel", r.kernel);
    nested(io, "problem", r.problem);
    io("warmup_launches", r.warmup_launches);
    io("timed_launches", r.timed_launches);
    io("seed", r.seed);
    io("check", r.check);
    io("adaptive", r.adaptive);
    io("hot", r.hot);
    io("max_noise", r.max_noise);
    io("min_time_s", r.min_time_s);
    io("budget_s", r.budget_s);
    io("max_samples", r.max_samples);
    io("settle_s", r.settle_s);
    io("end_to_end_runs", r.end_to_end_runs);
    io("energy", r.energy);
    io("energy_max_s", r.energy_max_s);
    io("experiment", r.experiment);
    io("runs", r.runs);
    maybe_nested(io, "user", r.user);
    io("accumulator_input", r.accumulator_input);
}

template <typename Io, typename Limits>
void fields(Io& io, Limits& l) requires std::is_same_v<std::remove_const_t<Limits>, model::DeviceLimits> {
    io("name", l.name);
    io("is_preset", l.is_preset);
    io("compute_major", l.compute_major);
    io("compute_minor", l.compute_minor);
    io("sm_count", l.sm_count);
    io("max_threads_per_block", l.max_threads_per_block);
    io("max_block_dim_x", l.max_block_dim_x);
    io("max_block_dim_y", l.max_block_dim_y);
    io("max_block_dim_z", l.max_block_dim_z);
    io("max_grid_x", l.max_grid_x);
    io("max_grid_y", l.max_grid_y);
    io("max_grid_z", l.max_grid_z);
    io("static_shared_per_block", l.static_shared_per_block);
    io("optin_shared_per_block", l.optin_shared_per_block);
    io("warp_size", l.warp_size);
    io("global_memory_bytes", l.global_memory_bytes);
    io("max_threads_per_sm", l.max_threads_per_sm);
    io("max_blocks_per_sm", l.max_blocks_per_sm);
    io("registers_per_sm", l.registers_per_sm);
    io("max_registers_per_block", l.max_registers_per_block);
    io("shared_per_sm", l.shared_per_sm);
    io("reserved_shared_per_block", l.reserved_shared_per_block);
}

template <typename Io, typename Device>
void fields(Io& io, Device& d) requires std::is_same_v<std::remove_const_t<Device>, DeviceInfo> {
    io("usable", d.usable);
    io("why_not", d.why_not);
    nested(io, "limits", d.limits);
    io("driver_version", d.driver_version);
    io("runtime_version", d.runtime_version);
    io("free_memory_bytes", d.free_memory_bytes);
    io("l2_cache_bytes", d.l2_cache_bytes);
    io("clock_khz", d.clock_khz);
    io("memory_clock_khz", d.memory_clock_khz);
    io("memory_bus_bits", d.memory_bus_bits);
    io("uuid", d.uuid);
    io("host", d.host);
    io("remote", d.remote);
    io("gpu_lock", d.gpu_lock);
}

template <typename Io, typename Occupancy>
void fields(Io& io, Occupancy& o) requires std::is_same_v<std::remove_const_t<Occupancy>, KernelOccupancy> {
    io("registers_per_thread", o.registers_per_thread);
    io("static_shared_bytes", o.static_shared_bytes);
    io("local_bytes_per_thread", o.local_bytes_per_thread);
    io("max_threads_per_block", o.max_threads_per_block);
    io("blocks_per_sm", o.blocks_per_sm);
}

template <typename Io, typename Peaks>
void fields(Io& io, Peaks& r) requires std::is_same_v<std::remove_const_t<Peaks>, RooflinePeaks> {
    io("bandwidth_gbs", r.bandwidth_gbs);
    io("copy_bytes", r.copy_bytes);
    io("copy_median_ms", r.copy_median_ms);
    io("bandwidth_label", r.bandwidth_label);
    io("fp32_gflops", r.fp32_gflops);
    io("sgemm_size", r.sgemm_size);
    io("sgemm_median_ms", r.sgemm_median_ms);
    io("fp32_label", r.fp32_label);
    io("fp32_unavailable", r.fp32_unavailable);
    io("bf16_gflops", r.bf16_gflops);
    io("bf16_size", r.bf16_size);
    io("bf16_label", r.bf16_label);
    io("bf16_unavailable", r.bf16_unavailable);
}

template <typename Io, typename Case>
void fields(Io& io, Case& c) requires std::is_same_v<std::remove_const_t<Case>, model::ExperimentCase> {
    nested(io, "kernel", c.kernel);
    nested(io, "problem", c.problem);
}

template <typename Io, typename Map>
void fields(Io& io, Map& m) requires std::is_same_v<std::remove_const_t<Map>, model::WrongCellMap> {
    io("rows", m.rows);
    io("cols", m.cols);
    io("bin_rows", m.bin_rows);
    io("bin_cols", m.bin_cols);
    io("wrong_runs", m.wrong_runs);
}

template <typename Io, typename Run>
void fields(Io& io, Run& r) requires std::is_same_v<std::remove_const_t<Run>, model::ExperimentRun> {
    io("experiment", r.experiment);
    nested(io, "case", r.c);
    io("blocks", r.blocks);
    io("runs", r.runs);
    io("wrong_runs", r.wrong_runs);
    io("wrong_cells_worst", r.wrong_cells_worst);
    io("wrong_cells_total", r.wrong_cells_total);
    io("cells_ever_wrong", r.cells_ever_wrong);
    io("max_error", r.max_error);
    io("nan_cells", r.nan_cells);
    io("stray_writes", r.stray_writes);
    io("stray_reads", r.stray_reads);
    nested(io, "map", r.map);
    io("broken_ms", r.broken_ms);
    io("real_ms", r.real_ms);
    io("note", r.note);
}

template <typename Io, typename Read>
void fields(Io& io, Read& r) requires std::is_same_v<std::remove_const_t<Read>, model::StaleRead> {
    io("block_x", r.block_x);
    io("block_y", r.block_y);
    io("phase", r.phase);
    io("operand", r.operand);
    io("slot_row", r.slot_row);
    io("slot_col", r.slot_col);
    io("reader_x", r.reader_x);
    io("reader_y", r.reader_y);
    io("read_clock", r.read_clock);
    io("expected", r.expected);
    io("got", r.got);
    io("value_phase", r.value_phase);
    io("writer_x", r.writer_x);
    io("writer_y", r.writer_y);
    io("write_clock", r.write_clock);
}

template <typename Io, typename Reading>
void fields(Io& io, Reading& r) requires std::is_same_v<std::remove_const_t<Reading>, model::CounterReading> {
    io("counter", r.counter);
    io("measured", r.measured);
    io("model", r.model);
    io("model_basis", r.model_basis);
}

// A list of structs: an array of objects under `key`.
template <typename Io, typename T>
void nested_list(Io& io, const char* key, std::vector<T>& list) {
    if constexpr (std::is_same_v<Io, Writer>) {
        Json array = Json::array();
        for (const T& item : list) array.push_back(to_json(item));
        io.json[key] = std::move(array);
    } else {
        list.clear();
        if (!io.json.contains(key)) return;
        for (const Json& inner : io.json.at(key)) read_json(inner, list.emplace_back());
    }
}
template <typename T>
void nested_list(Writer& io, const char* key, const std::vector<T>& list) {
    nested_list(io, key, const_cast<std::vector<T>&>(list));
}

template <typename Io, typename Point>
void fields(Io& io, Point& p) requires std::is_same_v<std::remove_const_t<Point>, model::GrowthPoint> {
    io("k", p.k);
    io("never_max", p.never_max);
    io("never_mean", p.never_mean);
    io("promoted_max", p.promoted_max);
    io("promoted_mean", p.promoted_mean);
    io("nan_cells", p.nan_cells);
}

// The probe's outputs travel as their bit patterns: a NaN (a cell the kernel never wrote) has no
// JSON number.
template <typename Io, typename Finding>
void fields(Io& io, Finding& f) requires std::is_same_v<std::remove_const_t<Finding>, model::AccumulatorFinding> {
    io("ran", f.ran);
    if constexpr (std::is_same_v<Io, Writer>) {
        std::vector<std::uint32_t> bits;
        for (float v : f.outputs) bits.push_back(std::bit_cast<std::uint32_t>(v));
        io("output_bits", bits);
    } else {
        std::vector<std::uint32_t> bits;
        io("output_bits", bits);
        f.outputs.clear();
        for (std::uint32_t b : bits) f.outputs.push_back(std::bit_cast<float>(b));
    }
    io("ladder_bits", f.ladder_bits);
    io("ladder_bits_other_half", f.ladder_bits_other_half);
    io("ladder_consistent", f.ladder_consistent);
    io("explained", f.explained);
    io("fraction_bits", f.fraction_bits);
    io("fraction_bits_max", f.fraction_bits_max);
    io("at_least", f.at_least);
    io("rounding", f.rounding);
    io("final_toward_zero", f.final_toward_zero);
    io("cells_unexplained", f.cells_unexplained);
    io("note", f.note);
}

template <typename Io, typename Report>
void fields(Io& io, Report& r) requires std::is_same_v<std::remove_const_t<Report>, model::AccumulatorTypeReport> {
    io("input", r.input);
    io("identity_passed", r.identity_passed);
    io("identity_note", r.identity_note);
    io("layout_swapped", r.layout_swapped);
    nested(io, "inside", r.inside);
    nested(io, "across", r.across);
    nested_list(io, "growth", r.growth);
}

template <typename Io, typename Report>
void fields(Io& io, Report& r) requires std::is_same_v<std::remove_const_t<Report>, model::AccumulatorReport> {
    io("device", r.device);
    nested_list(io, "types", r.types);
}

template <typename Io, typename Report>
void fields(Io& io, Report& r) requires std::is_same_v<std::remove_const_t<Report>, model::StaleReadReport> {
    io("experiment", r.experiment);
    nested(io, "case", r.c);
    io("launches", r.launches);
    io("reads_checked", r.reads_checked);
    io("stale_reads", r.stale_reads);
    nested_list(io, "reads", r.reads);
}

template <typename Io, typename Report>
void fields(Io& io, Report& r) requires std::is_same_v<std::remove_const_t<Report>, model::CounterReport> {
    nested(io, "kernel", r.kernel);
    nested(io, "problem", r.problem);
    io("device", r.device);
    nested_list(io, "readings", r.readings);
    io("metrics", r.metrics);
    io("passes", r.passes);
    io("note", r.note);
}

template <typename Io, typename Counts>
void fields(Io& io, Counts& c) requires std::is_same_v<std::remove_const_t<Counts>, model::UserCounts> {
    io("loads_a", c.loads_a);
    io("loads_b", c.loads_b);
    io("stores_c", c.stores_c);
    io("naive_loads", c.naive_loads);
    io("tiled_loads", c.tiled_loads);
    io("tile", c.tile);
    io("most_barriers", c.most_barriers);
}

template <typename Io, typename Use>
void fields(Io& io, Use& u) requires std::is_same_v<std::remove_const_t<Use>, model::SharedArrayUse> {
    io("name", u.name);
    io("rows", u.rows);
    io("cols", u.cols);
    io("reads", u.reads);
    io("writes", u.writes);
}

template <typename Io, typename Use>
void fields(Io& io, Use& u) requires std::is_same_v<std::remove_const_t<Use>, model::SharedLineUse> {
    io("line", u.line);
    io("array", u.array);
    io("write", u.write);
    io("warp_accesses", u.warp_accesses);
    io("wavefronts", u.wavefronts);
    io("worst", u.worst);
}

template <typename Io, typename Race>
void fields(Io& io, Race& r) requires std::is_same_v<std::remove_const_t<Race>, model::SharedRace> {
    io("array", r.array);
    io("element", r.element);
    io("block", r.block);
    io("barriers", r.barriers);
    io("writer_x", r.writer_x);
    io("writer_y", r.writer_y);
    io("writer_line", r.writer_line);
    io("other_x", r.other_x);
    io("other_y", r.other_y);
    io("other_line", r.other_line);
    io("other_writes", r.other_writes);
}

template <typename Io, typename Report>
void fields(Io& io, Report& r) requires std::is_same_v<std::remove_const_t<Report>, model::SharedReport> {
    io("not_recorded", r.not_recorded);
    nested_list(io, "arrays", r.arrays);
    nested_list(io, "lines", r.lines);
    io("warp_accesses", r.warp_accesses);
    io("wavefronts", r.wavefronts);
    io("races", r.races);
    nested_list(io, "examples", r.examples);
}

template <typename Io, typename Report>
void fields(Io& io, Report& r) requires std::is_same_v<std::remove_const_t<Report>, UserTraceReport> {
    nested(io, "counts", r.counts);
    io("counts_text", r.counts_text);
    io("events", r.events);
    io("c_right", r.c_right);
    io("c_summary", r.c_summary);
    io("theatre_note", r.theatre_note);
    nested(io, "shared", r.shared);
}

template <typename Io, typename Report>
void fields(Io& io, Report& r) requires std::is_same_v<std::remove_const_t<Report>, UserCompileReport> {
    io("ok", r.ok);
    io("why", r.why);
    io("log", r.log);
    nested_list(io, "diagnostics", r.diagnostics);
    io("arch", r.arch);
    io("nvrtc_version", r.nvrtc_version);
    io("seconds", r.seconds);
    io("cubin_bytes", r.cubin_bytes);
    io("reused", r.reused);
}

// A nested struct that may be absent: written when there, read when its key is.
template <typename T>
void maybe_nested(Writer& io, const char* key, const std::optional<T>& value) {
    if (value) nested(io, key, *value);
}
template <typename T>
void maybe_nested(Reader& io, const char* key, std::optional<T>& value) {
    if (io.json.contains(key)) nested(io, key, value.emplace());
}

template <typename Io, typename Result>
void fields(Io& io, Result& r) requires std::is_same_v<std::remove_const_t<Result>, RunResult> {
    io("id", r.id);
    nested(io, "request", r.request);
    io("ok", r.ok);
    io("error", r.error);
    io("unsupported", r.unsupported);
    io("tuned_variant", r.tuned_variant);
    io("tuned_source", r.tuned_source);
    io("samples_ms", r.samples_ms);
    io("median_ms", r.median_ms);
    io("gflops", r.gflops);
    io("checked", r.checked);
    io("check_passed", r.check_passed);
    io("max_rel_error", r.max_rel_error);
    io("mismatches", r.mismatches);
    io("check_summary", r.check_summary);
    io("quantize_ms", r.quantize_ms);
    io("error_vs_fp64_max", r.error_vs_fp64_max);
    io("error_vs_fp64_rms", r.error_vs_fp64_rms);
    io("hot", r.hot);
    io("l2_flush_bytes", r.l2_flush_bytes);
    io("p20_ms", r.p20_ms);
    io("p80_ms", r.p80_ms);
    io("mean_ms", r.mean_ms);
    io("min_ms", r.min_ms);
    io("max_ms", r.max_ms);
    io("noise", r.noise);
    io("stop_reason", r.stop_reason);
    io("timing_warning", r.timing_warning);
    io("measure_wall_s", r.measure_wall_s);
    nested(io, "clocks", r.clocks);
    nested(io, "energy", r.energy);
    io("model_traffic_bytes", r.model_traffic_bytes);
    io("model_bandwidth_gbs", r.model_bandwidth_gbs);
    io("end_to_end_ms", r.end_to_end_ms);
    io("end_to_end_median_ms", r.end_to_end_median_ms);
    maybe_nested(io, "occupancy", r.occupancy);
    maybe_nested(io, "roofline", r.roofline);
    maybe_nested(io, "experiment", r.experiment);
    maybe_nested(io, "stale_reads", r.stale_reads);
    maybe_nested(io, "counters", r.counters);
    maybe_nested(io, "compile", r.compile);
    maybe_nested(io, "user_launch", r.user_launch);
    maybe_nested(io, "user_trace", r.user_trace);
    maybe_nested(io, "accumulator", r.accumulator);
    io("device_free_bytes", r.device_free_bytes);
    io("device_total_bytes", r.device_total_bytes);
    io("gpu_queued", r.gpu_queued);
    io("gpu_wait_s", r.gpu_wait_s);
    io("gpu_queue_ahead", r.gpu_queue_ahead);
    io("gpu_sharing_watched", r.gpu_sharing_watched);
    io("gpu_shared", r.gpu_shared);
    io("gpu_shared_note", r.gpu_shared_note);
    io("gpu_host", r.gpu_host);
    io("live_key", r.live_key);
    io("superseded_by", r.superseded_by);
}

template <typename T>
T from_json(const Json& json) {
    T value{};
    read_json(json, value);
    return value;
}

// The trace travels as the text of its own file format (record/trace_file.hpp).
Json result_json(const RunResult& r) {
    Json j = to_json(r);
    if (r.trace) j["trace"] = record::trace_to_json(*r.trace);
    return j;
}
RunResult read_result(const Json& j) {
    RunResult r = from_json<RunResult>(j);
    if (j.contains("trace")) {
        auto trace = record::parse_trace(j.at("trace").get<std::string>(), "the worker's trace");
        if (auto* why = std::get_if<std::string>(&trace)) throw std::runtime_error(*why);
        r.trace = std::move(std::get<model::KernelTrace>(trace));
    }
    return r;
}

}  // namespace

// ---- [SECTION] Messages ---------------------------------------------------------------------

std::string encode_request(const RunRequest& request) { return to_json(request).dump(); }
std::string encode_result(const RunResult& result) { return result_json(result).dump(); }
std::string encode_device(const DeviceInfo& device) { return to_json(device).dump(); }

const char* tilescope_version() { return TILESCOPE_VERSION; }

std::optional<std::string> incompatibility(const Hello& hello, const std::string& where) {
    if (hello.protocol == kProtocolVersion) return std::nullopt;
    const std::string theirs = hello.tilescope_version.empty() ? std::string("an unknown version") : hello.tilescope_version;
    const bool older = hello.protocol < kProtocolVersion;
    return model::format_text("the GPU worker on {} is TileScope {} (protocol {}) and this is TileScope {} (protocol {}): "
                              "install TileScope {} on {}{}",
                              where, theirs, hello.protocol, tilescope_version(), kProtocolVersion,
                              older ? tilescope_version() : theirs, older ? where : "this machine",
                              older ? "" : model::format_text(", or TileScope {} on {}", tilescope_version(), where));
}

std::string encode_message(const Message& message) {
    Json j;
    j["type"] = message.type;
    if (message.hello) {
        j["hello"] = {{"protocol", message.hello->protocol},
                      {"tilescope_version", message.hello->tilescope_version},
                      {"device", to_json(message.hello->device)}};
    }
    if (message.deadline_s > 0.0) j["deadline_s"] = message.deadline_s;
    if (message.type == "waiting") j["ahead"] = message.ahead;
    if (message.request) j["request"] = to_json(*message.request);
    if (message.result) j["result"] = result_json(*message.result);
    if (message.device) j["device"] = to_json(*message.device);
    if (message.context_lost) j["context_lost"] = true;
    // Invalid UTF-8 from a driver's message is replaced rather than thrown on.
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::variant<Message, std::string> decode_message(std::string_view text) {
    try {
        const Json j = Json::parse(text);
        Message message;
        message.type = j.at("type").get<std::string>();
        if (j.contains("hello")) {
            const Json& hello = j.at("hello");
            message.hello = Hello{.protocol = whole_number<int>(hello.at("protocol"), "protocol"),
                                  .tilescope_version = hello.value("tilescope_version", std::string()),
                                  .device = from_json<DeviceInfo>(hello.at("device"))};
        }
        if (j.contains("deadline_s")) message.deadline_s = j.at("deadline_s").get<double>();
        if (j.contains("ahead")) message.ahead = whole_number<int>(j.at("ahead"), "ahead");
        if (j.contains("request")) message.request = from_json<RunRequest>(j.at("request"));
        if (j.contains("result")) message.result = read_result(j.at("result"));
        if (j.contains("device")) message.device = from_json<DeviceInfo>(j.at("device"));
        message.context_lost = j.value("context_lost", false);
        return message;
    } catch (const std::exception& e) {
        return std::string("not a message of the GPU worker: ") + e.what();
    }
}

// ---- [SECTION] Frames on the pipe ---------------------------------------------------------

namespace {

bool write_all(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return false;
        data += written;
        size -= static_cast<std::size_t>(written);
    }
    return true;
}

// Reads exactly `size` bytes; false at end of file (or an error) before that.
bool read_all(int fd, char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t got = ::read(fd, data, size);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        data += got;
        size -= static_cast<std::size_t>(got);
    }
    return true;
}

void put_u32(std::string& out, std::uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8) out += static_cast<char>((value >> shift) & 0xff);
}

std::uint32_t get_u32(const char* bytes) {
    const auto byte = [&](int i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])); };
    return byte(0) | (byte(1) << 8) | (byte(2) << 16) | (byte(3) << 24);
}

// A frame's payload from its bytes after the header: as it is, or decompressed; an error string for
// a compressed one that is broken or says a size it does not have.
std::variant<std::string, std::string> payload_of(std::string body, bool compressed) {
    if (!compressed) return std::variant<std::string, std::string>(std::in_place_index<0>, std::move(body));
    const auto fail = [](std::string why) { return std::variant<std::string, std::string>(std::in_place_index<1>, std::move(why)); };
    if (body.size() < 4) return fail("a compressed frame too short to hold its size");
    const std::uint32_t size = get_u32(body.data());
    if (size > kMaxFrameBytes) return fail("a compressed frame of " + std::to_string(size) + " bytes: more than any message holds");
    // Deflate packs at most about 1032 to 1: a size past that is a lie, refused before it is allocated.
    if (size > (body.size() - 4) * 1032 + 64) return fail("a compressed frame that says more than its bytes can hold");
    std::string payload(size, '\0');
    uLongf got = size;
    const int status = uncompress(reinterpret_cast<Bytef*>(payload.data()), &got,
                                  reinterpret_cast<const Bytef*>(body.data() + 4), static_cast<uLong>(body.size() - 4));
    if (status != Z_OK || got != size) return fail("a compressed frame that does not decompress to the size it gives");
    return std::variant<std::string, std::string>(std::in_place_index<0>, std::move(payload));
}

}  // namespace

std::string frame_bytes(std::string_view payload, bool compress_large) {
    std::string frame;
    if (compress_large && payload.size() > kCompressAboveBytes && payload.size() <= kMaxFrameBytes) {
        uLongf packed_size = compressBound(static_cast<uLong>(payload.size()));
        std::string packed(4 + packed_size, '\0');
        // Level 1: most of the gain at a fraction of the time, so a local worker loses nothing by it.
        if (compress2(reinterpret_cast<Bytef*>(packed.data() + 4), &packed_size, reinterpret_cast<const Bytef*>(payload.data()),
                      static_cast<uLong>(payload.size()), 1) == Z_OK) {
            packed.resize(4 + packed_size);
            std::string size;
            put_u32(size, static_cast<std::uint32_t>(payload.size()));
            packed.replace(0, 4, size);
            put_u32(frame, static_cast<std::uint32_t>(packed.size()) | kCompressedFrameBit);
            return frame + packed;
        }
    }
    put_u32(frame, static_cast<std::uint32_t>(payload.size()));
    frame.append(payload);
    return frame;
}

bool write_frame(int fd, std::string_view payload, bool compress_large) {
    if (!compress_large || payload.size() <= kCompressAboveBytes) {
        std::string header;
        put_u32(header, static_cast<std::uint32_t>(payload.size()));
        return write_all(fd, header.data(), 4) && write_all(fd, payload.data(), payload.size());
    }
    const std::string frame = frame_bytes(payload, true);
    return write_all(fd, frame.data(), frame.size());
}

std::variant<std::optional<std::string>, std::string> read_frame(int fd) {
    char header[4];
    if (!read_all(fd, header, 4)) return std::optional<std::string>{};
    const std::uint32_t word = get_u32(header);
    const std::uint32_t size = word & ~kCompressedFrameBit;
    if (size > kMaxFrameBytes) return "a frame of " + std::to_string(size) + " bytes: more than any message holds";
    std::string body(size, '\0');
    if (!read_all(fd, body.data(), size)) return std::string("the pipe closed in the middle of a message");
    auto payload = payload_of(std::move(body), (word & kCompressedFrameBit) != 0);
    if (payload.index() == 1) return std::get<1>(std::move(payload));
    return std::optional<std::string>(std::get<0>(std::move(payload)));
}

std::variant<std::optional<std::string>, std::string> FrameReader::next() {
    if (m_buffer.size() < 4) return std::optional<std::string>{};
    const std::uint32_t word = get_u32(m_buffer.data());
    const std::uint32_t size = word & ~kCompressedFrameBit;
    if (size > kMaxFrameBytes) return "a frame of " + std::to_string(size) + " bytes: more than any message holds";
    if (m_buffer.size() < 4 + std::size_t{size}) return std::optional<std::string>{};
    std::string body = m_buffer.substr(4, size);
    m_buffer.erase(0, 4 + std::size_t{size});
    auto payload = payload_of(std::move(body), (word & kCompressedFrameBit) != 0);
    if (payload.index() == 1) return std::get<1>(std::move(payload));
    return std::optional<std::string>(std::get<0>(std::move(payload)));
}

}  // namespace ts::gpu::wire
