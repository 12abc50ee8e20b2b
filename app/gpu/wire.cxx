#include "wire.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "record/trace_file.hpp"

namespace ts::gpu::wire {

namespace {

using Json = nlohmann::json;

// One field each way. `get` leaves the value as it is when the key is missing, so a newer
// supervisor reads an older worker's message (both come from one build today).
template <typename T>
void put(Json& j, const char* key, const T& value) {
    j[key] = value;
}
template <typename T>
void put(Json& j, const char* key, const std::optional<T>& value) {
    if (value) j[key] = *value;
}
template <typename T>
void get(const Json& j, const char* key, T& value) {
    if (const auto it = j.find(key); it != j.end() && !it->is_null()) value = it->get<T>();
}
template <typename T>
void get(const Json& j, const char* key, std::optional<T>& value) {
    if (const auto it = j.find(key); it != j.end() && !it->is_null()) value = it->get<T>();
}

Json kernel_json(const model::KernelConfig& k) {
    return {{"kind", static_cast<int>(k.kind)}, {"block_x", k.block_x}, {"block_y", k.block_y}, {"tile", k.tile}};
}
model::KernelConfig read_kernel(const Json& j) {
    model::KernelConfig k;
    k.kind = static_cast<model::KernelKind>(j.at("kind").get<int>());
    get(j, "block_x", k.block_x);
    get(j, "block_y", k.block_y);
    get(j, "tile", k.tile);
    return k;
}

Json problem_json(const model::Problem& p) {
    return {{"m", p.m}, {"n", p.n}, {"k", p.k}, {"batch", p.batch}, {"dtype", static_cast<int>(p.dtype)}};
}
model::Problem read_problem(const Json& j) {
    model::Problem p;
    get(j, "m", p.m);
    get(j, "n", p.n);
    get(j, "k", p.k);
    get(j, "batch", p.batch);
    p.dtype = static_cast<model::Dtype>(j.at("dtype").get<int>());
    return p;
}

Json request_json(const RunRequest& r) {
    Json j;
    put(j, "kind", static_cast<int>(r.kind));
    j["kernel"] = kernel_json(r.kernel);
    j["problem"] = problem_json(r.problem);
    put(j, "warmup_launches", r.warmup_launches);
    put(j, "timed_launches", r.timed_launches);
    put(j, "seed", r.seed);
    put(j, "check", r.check);
    put(j, "adaptive", r.adaptive);
    put(j, "hot", r.hot);
    put(j, "max_noise", r.max_noise);
    put(j, "min_time_s", r.min_time_s);
    put(j, "budget_s", r.budget_s);
    put(j, "max_samples", r.max_samples);
    put(j, "end_to_end_runs", r.end_to_end_runs);
    return j;
}
RunRequest read_request(const Json& j) {
    RunRequest r;
    r.kind = static_cast<RequestKind>(j.at("kind").get<int>());
    r.kernel = read_kernel(j.at("kernel"));
    r.problem = read_problem(j.at("problem"));
    get(j, "warmup_launches", r.warmup_launches);
    get(j, "timed_launches", r.timed_launches);
    get(j, "seed", r.seed);
    get(j, "check", r.check);
    get(j, "adaptive", r.adaptive);
    get(j, "hot", r.hot);
    get(j, "max_noise", r.max_noise);
    get(j, "min_time_s", r.min_time_s);
    get(j, "budget_s", r.budget_s);
    get(j, "max_samples", r.max_samples);
    get(j, "end_to_end_runs", r.end_to_end_runs);
    return r;
}

Json limits_json(const model::DeviceLimits& l) {
    Json j;
    put(j, "name", l.name);
    put(j, "is_preset", l.is_preset);
    put(j, "compute_major", l.compute_major);
    put(j, "compute_minor", l.compute_minor);
    put(j, "sm_count", l.sm_count);
    put(j, "max_threads_per_block", l.max_threads_per_block);
    put(j, "max_block_dim_x", l.max_block_dim_x);
    put(j, "max_block_dim_y", l.max_block_dim_y);
    put(j, "max_block_dim_z", l.max_block_dim_z);
    put(j, "max_grid_x", l.max_grid_x);
    put(j, "max_grid_y", l.max_grid_y);
    put(j, "max_grid_z", l.max_grid_z);
    put(j, "static_shared_per_block", l.static_shared_per_block);
    put(j, "warp_size", l.warp_size);
    put(j, "global_memory_bytes", l.global_memory_bytes);
    put(j, "max_threads_per_sm", l.max_threads_per_sm);
    put(j, "max_blocks_per_sm", l.max_blocks_per_sm);
    put(j, "registers_per_sm", l.registers_per_sm);
    put(j, "max_registers_per_block", l.max_registers_per_block);
    put(j, "shared_per_sm", l.shared_per_sm);
    put(j, "reserved_shared_per_block", l.reserved_shared_per_block);
    return j;
}
model::DeviceLimits read_limits(const Json& j) {
    model::DeviceLimits l;
    get(j, "name", l.name);
    get(j, "is_preset", l.is_preset);
    get(j, "compute_major", l.compute_major);
    get(j, "compute_minor", l.compute_minor);
    get(j, "sm_count", l.sm_count);
    get(j, "max_threads_per_block", l.max_threads_per_block);
    get(j, "max_block_dim_x", l.max_block_dim_x);
    get(j, "max_block_dim_y", l.max_block_dim_y);
    get(j, "max_block_dim_z", l.max_block_dim_z);
    get(j, "max_grid_x", l.max_grid_x);
    get(j, "max_grid_y", l.max_grid_y);
    get(j, "max_grid_z", l.max_grid_z);
    get(j, "static_shared_per_block", l.static_shared_per_block);
    get(j, "warp_size", l.warp_size);
    get(j, "global_memory_bytes", l.global_memory_bytes);
    get(j, "max_threads_per_sm", l.max_threads_per_sm);
    get(j, "max_blocks_per_sm", l.max_blocks_per_sm);
    get(j, "registers_per_sm", l.registers_per_sm);
    get(j, "max_registers_per_block", l.max_registers_per_block);
    get(j, "shared_per_sm", l.shared_per_sm);
    get(j, "reserved_shared_per_block", l.reserved_shared_per_block);
    return l;
}

Json device_json(const DeviceInfo& d) {
    Json j;
    put(j, "usable", d.usable);
    put(j, "why_not", d.why_not);
    j["limits"] = limits_json(d.limits);
    put(j, "driver_version", d.driver_version);
    put(j, "runtime_version", d.runtime_version);
    put(j, "free_memory_bytes", d.free_memory_bytes);
    put(j, "l2_cache_bytes", d.l2_cache_bytes);
    put(j, "clock_khz", d.clock_khz);
    put(j, "memory_clock_khz", d.memory_clock_khz);
    put(j, "memory_bus_bits", d.memory_bus_bits);
    return j;
}
DeviceInfo read_device(const Json& j) {
    DeviceInfo d;
    get(j, "usable", d.usable);
    get(j, "why_not", d.why_not);
    d.limits = read_limits(j.at("limits"));
    get(j, "driver_version", d.driver_version);
    get(j, "runtime_version", d.runtime_version);
    get(j, "free_memory_bytes", d.free_memory_bytes);
    get(j, "l2_cache_bytes", d.l2_cache_bytes);
    get(j, "clock_khz", d.clock_khz);
    get(j, "memory_clock_khz", d.memory_clock_khz);
    get(j, "memory_bus_bits", d.memory_bus_bits);
    return d;
}

Json occupancy_json(const KernelOccupancy& o) {
    return {{"registers_per_thread", o.registers_per_thread},
            {"static_shared_bytes", o.static_shared_bytes},
            {"local_bytes_per_thread", o.local_bytes_per_thread},
            {"max_threads_per_block", o.max_threads_per_block},
            {"blocks_per_sm", o.blocks_per_sm}};
}
KernelOccupancy read_occupancy(const Json& j) {
    KernelOccupancy o;
    get(j, "registers_per_thread", o.registers_per_thread);
    get(j, "static_shared_bytes", o.static_shared_bytes);
    get(j, "local_bytes_per_thread", o.local_bytes_per_thread);
    get(j, "max_threads_per_block", o.max_threads_per_block);
    get(j, "blocks_per_sm", o.blocks_per_sm);
    return o;
}

Json roofline_json(const RooflinePeaks& r) {
    Json j;
    put(j, "bandwidth_gbs", r.bandwidth_gbs);
    put(j, "copy_bytes", r.copy_bytes);
    put(j, "copy_median_ms", r.copy_median_ms);
    put(j, "bandwidth_label", r.bandwidth_label);
    put(j, "fp32_gflops", r.fp32_gflops);
    put(j, "sgemm_size", r.sgemm_size);
    put(j, "sgemm_median_ms", r.sgemm_median_ms);
    put(j, "fp32_label", r.fp32_label);
    put(j, "fp32_unavailable", r.fp32_unavailable);
    return j;
}
RooflinePeaks read_roofline(const Json& j) {
    RooflinePeaks r;
    get(j, "bandwidth_gbs", r.bandwidth_gbs);
    get(j, "copy_bytes", r.copy_bytes);
    get(j, "copy_median_ms", r.copy_median_ms);
    get(j, "bandwidth_label", r.bandwidth_label);
    get(j, "fp32_gflops", r.fp32_gflops);
    get(j, "sgemm_size", r.sgemm_size);
    get(j, "sgemm_median_ms", r.sgemm_median_ms);
    get(j, "fp32_label", r.fp32_label);
    get(j, "fp32_unavailable", r.fp32_unavailable);
    return r;
}

Json result_json(const RunResult& r) {
    Json j;
    put(j, "id", r.id);
    j["request"] = request_json(r.request);
    put(j, "ok", r.ok);
    put(j, "error", r.error);
    put(j, "unsupported", r.unsupported);
    put(j, "samples_ms", r.samples_ms);
    put(j, "median_ms", r.median_ms);
    put(j, "gflops", r.gflops);
    put(j, "checked", r.checked);
    put(j, "check_passed", r.check_passed);
    put(j, "max_rel_error", r.max_rel_error);
    put(j, "mismatches", r.mismatches);
    put(j, "check_summary", r.check_summary);
    put(j, "hot", r.hot);
    put(j, "l2_flush_bytes", r.l2_flush_bytes);
    put(j, "p20_ms", r.p20_ms);
    put(j, "p80_ms", r.p80_ms);
    put(j, "mean_ms", r.mean_ms);
    put(j, "min_ms", r.min_ms);
    put(j, "max_ms", r.max_ms);
    put(j, "noise", r.noise);
    put(j, "stop_reason", r.stop_reason);
    put(j, "timing_warning", r.timing_warning);
    put(j, "measure_wall_s", r.measure_wall_s);
    put(j, "model_traffic_bytes", r.model_traffic_bytes);
    put(j, "model_bandwidth_gbs", r.model_bandwidth_gbs);
    put(j, "end_to_end_ms", r.end_to_end_ms);
    put(j, "end_to_end_median_ms", r.end_to_end_median_ms);
    if (r.occupancy) j["occupancy"] = occupancy_json(*r.occupancy);
    if (r.roofline) j["roofline"] = roofline_json(*r.roofline);
    if (r.trace) j["trace"] = record::trace_to_json(*r.trace);
    put(j, "device_free_bytes", r.device_free_bytes);
    put(j, "device_total_bytes", r.device_total_bytes);
    put(j, "live_key", r.live_key);
    put(j, "superseded_by", r.superseded_by);
    return j;
}
RunResult read_result(const Json& j) {
    RunResult r;
    get(j, "id", r.id);
    r.request = read_request(j.at("request"));
    get(j, "ok", r.ok);
    get(j, "error", r.error);
    get(j, "unsupported", r.unsupported);
    get(j, "samples_ms", r.samples_ms);
    get(j, "median_ms", r.median_ms);
    get(j, "gflops", r.gflops);
    get(j, "checked", r.checked);
    get(j, "check_passed", r.check_passed);
    get(j, "max_rel_error", r.max_rel_error);
    get(j, "mismatches", r.mismatches);
    get(j, "check_summary", r.check_summary);
    get(j, "hot", r.hot);
    get(j, "l2_flush_bytes", r.l2_flush_bytes);
    get(j, "p20_ms", r.p20_ms);
    get(j, "p80_ms", r.p80_ms);
    get(j, "mean_ms", r.mean_ms);
    get(j, "min_ms", r.min_ms);
    get(j, "max_ms", r.max_ms);
    get(j, "noise", r.noise);
    get(j, "stop_reason", r.stop_reason);
    get(j, "timing_warning", r.timing_warning);
    get(j, "measure_wall_s", r.measure_wall_s);
    get(j, "model_traffic_bytes", r.model_traffic_bytes);
    get(j, "model_bandwidth_gbs", r.model_bandwidth_gbs);
    get(j, "end_to_end_ms", r.end_to_end_ms);
    get(j, "end_to_end_median_ms", r.end_to_end_median_ms);
    if (j.contains("occupancy")) r.occupancy = read_occupancy(j.at("occupancy"));
    if (j.contains("roofline")) r.roofline = read_roofline(j.at("roofline"));
    if (j.contains("trace")) {
        auto trace = record::parse_trace(j.at("trace").get<std::string>(), "the worker's trace");
        if (auto* why = std::get_if<std::string>(&trace)) throw std::runtime_error(*why);
        r.trace = std::move(std::get<model::KernelTrace>(trace));
    }
    get(j, "device_free_bytes", r.device_free_bytes);
    get(j, "device_total_bytes", r.device_total_bytes);
    get(j, "live_key", r.live_key);
    get(j, "superseded_by", r.superseded_by);
    return r;
}

}  // namespace

std::string encode_request(const RunRequest& request) { return request_json(request).dump(); }
std::string encode_result(const RunResult& result) { return result_json(result).dump(); }
std::string encode_device(const DeviceInfo& device) { return device_json(device).dump(); }

std::string encode_message(const Message& message) {
    Json j;
    j["type"] = message.type;
    if (message.request) j["request"] = request_json(*message.request);
    if (message.result) j["result"] = result_json(*message.result);
    if (message.device) j["device"] = device_json(*message.device);
    if (message.context_lost) j["context_lost"] = true;
    // Invalid UTF-8 from a driver's message is replaced rather than thrown on.
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::variant<Message, std::string> decode_message(std::string_view text) {
    try {
        const Json j = Json::parse(text);
        Message message;
        message.type = j.at("type").get<std::string>();
        if (j.contains("request")) message.request = read_request(j.at("request"));
        if (j.contains("result")) message.result = read_result(j.at("result"));
        if (j.contains("device")) message.device = read_device(j.at("device"));
        get(j, "context_lost", message.context_lost);
        return message;
    } catch (const std::exception& e) {
        return std::string("not a message of the GPU worker: ") + e.what();
    }
}

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

}  // namespace

bool write_frame(int fd, std::string_view payload) {
    const auto size = static_cast<std::uint32_t>(payload.size());
    const unsigned char header[4] = {static_cast<unsigned char>(size), static_cast<unsigned char>(size >> 8),
                                     static_cast<unsigned char>(size >> 16), static_cast<unsigned char>(size >> 24)};
    return write_all(fd, reinterpret_cast<const char*>(header), 4) && write_all(fd, payload.data(), payload.size());
}

std::variant<std::optional<std::string>, std::string> read_frame(int fd) {
    unsigned char header[4];
    if (!read_all(fd, reinterpret_cast<char*>(header), 4)) return std::optional<std::string>{};
    const std::uint32_t size = header[0] | (header[1] << 8) | (header[2] << 16) | (std::uint32_t{header[3]} << 24);
    if (size > kMaxFrameBytes) return "a frame of " + std::to_string(size) + " bytes: more than any message holds";
    std::string payload(size, '\0');
    if (!read_all(fd, payload.data(), size)) return std::string("the pipe closed in the middle of a message");
    return std::optional<std::string>(std::move(payload));
}

std::variant<std::optional<std::string>, std::string> FrameReader::next() {
    if (m_buffer.size() < 4) return std::optional<std::string>{};
    const auto byte = [&](int i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(m_buffer[i])); };
    const std::uint32_t size = byte(0) | (byte(1) << 8) | (byte(2) << 16) | (byte(3) << 24);
    if (size > kMaxFrameBytes) return "a frame of " + std::to_string(size) + " bytes: more than any message holds";
    if (m_buffer.size() < 4 + std::size_t{size}) return std::optional<std::string>{};
    std::string payload = m_buffer.substr(4, size);
    m_buffer.erase(0, 4 + std::size_t{size});
    return std::optional<std::string>(std::move(payload));
}

}  // namespace ts::gpu::wire
