#include "measurement_file.hpp"

#include "json_document.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace ts::record {

namespace {

template <typename T>
Json nullable(const std::optional<T>& value) {
    return value ? Json(*value) : Json(nullptr);
}

int small(std::int64_t value) { return static_cast<int>(std::clamp<std::int64_t>(value, -(1 << 30), 1 << 30)); }

std::optional<int> maybe_small(const std::optional<std::int64_t>& value) {
    return value ? std::optional(small(*value)) : std::nullopt;
}

// Each struct's keys are listed once, in the order the file holds them, in a fields() function
// that a Writer (to JSON) and a Reader (from a document's Fields, every error naming where) both
// walk.
struct Writer {
    Json& json;
    template <typename T>
    void operator()(const char* key, const T& value) {
        json[key] = value;
    }
    // What does not apply is null; an absent text is empty (clock_limits: nothing held the clock).
    template <typename T>
    void operator()(const char* key, const std::optional<T>& value) {
        json[key] = nullable(value);
    }
    void operator()(const char* key, const std::optional<std::string>& value) { json[key] = value.value_or(""); }
    // A key added since the first files: written only where `present`, so that a measurement
    // without it writes as it always did.
    template <typename T>
    void added_later(const char* key, const T& value, bool present) {
        if (present) (*this)(key, value);
    }
    // A timing, null for a failed point.
    void timed(const char* key, double value, bool ok) { json[key] = ok ? Json(value) : Json(nullptr); }
    // The count of samples, which the Reader leaves to read_point to check against the list.
    void sample_count(const char* key, std::int64_t count) { json[key] = count; }
};

struct Reader {
    const Fields& f;
    void operator()(const char* key, std::string& value) const { value = f.text(key); }
    void operator()(const char* key, std::optional<std::string>& value) const { value = f.text(key); }
    void operator()(const char* key, bool& value) const { value = f.flag(key); }
    void operator()(const char* key, int& value) const { value = small(f.integer(key)); }
    void operator()(const char* key, std::int64_t& value) const { value = f.integer(key); }
    void operator()(const char* key, double& value) const { value = f.number(key); }
    void operator()(const char* key, std::optional<bool>& value) const { value = f.maybe_flag(key); }
    void operator()(const char* key, std::optional<int>& value) const { value = maybe_small(f.maybe_integer(key)); }
    void operator()(const char* key, std::optional<std::int64_t>& value) const { value = f.maybe_integer(key); }
    void operator()(const char* key, std::optional<double>& value) const { value = f.maybe_number(key); }
    template <typename T>
    void added_later(const char* key, T& value, bool) const {
        if (f.has(key)) (*this)(key, value);
    }
    // A failed point has nulls where its timing would be; a measured one must have numbers.
    void timed(const char* key, double& value, bool ok) const {
        value = ok ? f.number(key) : f.maybe_number(key).value_or(0.0);
    }
    void sample_count(const char*, std::int64_t) const {}
};

template <typename Io, typename T>
void fields(Io& io, T& d) requires std::is_same_v<std::remove_const_t<T>, Device> {
    io("name", d.name);
    io("compute_capability", d.compute_capability);
    io("sm_count", d.sm_count);
    io("global_memory_bytes", d.global_memory_bytes);
    io("l2_cache_bytes", d.l2_cache_bytes);
    io("driver_cuda_version", d.driver_cuda_version);
    io("runtime_cuda_version", d.runtime_cuda_version);
    io("clock_mhz", d.clock_mhz);
    io("memory_clock_mhz", d.memory_clock_mhz);
    io("memory_bus_bits", d.memory_bus_bits);
    io.added_later("host", d.host, !d.host.empty());
}

template <typename Io, typename T>
void fields(Io& io, T& t) requires std::is_same_v<std::remove_const_t<T>, Timing> {
    io("mode", t.mode);
    io("warmup_launches", t.warmup_launches);
    io("min_samples", t.min_samples);
    io("adaptive", t.adaptive);
    io("max_noise_pct", t.max_noise_pct);
    io("min_time_s", t.min_time_s);
    io("budget_s", t.budget_s);
    io("max_samples", t.max_samples);
    io("end_to_end_runs", t.end_to_end_runs);
    // Only where asked for.
    io.added_later("settle_s", t.settle_s, t.settle_s > 0.0);
}

// Every point has every key, so a table of points has fixed columns; what does not apply
// is null. The CSV's columns are these keys (samples_ms, which point_json adds, aside).
template <typename Io, typename T>
void fields(Io& io, T& p) requires std::is_same_v<std::remove_const_t<T>, Point> {
    io("index", p.index);
    io("kernel", p.kernel);
    io("config", p.config);
    io("block_x", p.block_x);
    io("block_y", p.block_y);
    io("tile", p.tile);
    // Only where known.
    io.added_later("ran_candidate", p.ran_candidate, p.ran_candidate.has_value());
    io("m", p.m);
    io("n", p.n);
    io("k", p.k);
    io("batch", p.batch);
    io("dtype", p.dtype);
    io("mode", p.mode);
    io("ok", p.ok);
    io("error", p.error);
    io.timed("median_ms", p.median_ms, p.ok);
    io.timed("p20_ms", p.p20_ms, p.ok);
    io.timed("p80_ms", p.p80_ms, p.ok);
    io.timed("mean_ms", p.mean_ms, p.ok);
    io.timed("min_ms", p.min_ms, p.ok);
    io.timed("max_ms", p.max_ms, p.ok);
    io.timed("noise_pct", p.noise_pct, p.ok);
    io.sample_count("samples", sample_count(p));
    io("stop_reason", p.stop_reason);
    io.timed("gflops", p.gflops, p.ok);
    io("model_traffic_bytes", p.model_traffic_bytes);
    io("model_bandwidth_GBps", p.model_bandwidth_GBps);
    io("end_to_end_ms", p.end_to_end_ms);
    io("checked", p.checked);
    io("check_passed", p.check_passed);
    io("max_rel_error", p.max_rel_error);
    io("check_summary", p.check_summary);
    io("cpu_triple_loop_ms", p.cpu_triple_loop_ms);
    io("cpu_is_estimate", p.cpu_is_estimate);
    io("cpu_estimated_from", p.cpu_estimated_from);
    // The three together, where the clock was read: a measurement without readings keeps its old keys.
    io.added_later("sm_clock_mhz", p.sm_clock_mhz, p.sm_clock_mhz.has_value());
    if (p.sm_clock_mhz) {
        io("power_w", p.power_w);
        io("clock_limits", p.clock_limits);
    }
    io.added_later("gpu_host", p.gpu_host, p.gpu_host.has_value());
    io.added_later("gpu_wait_s", p.gpu_wait_s, p.gpu_wait_s.has_value());
    io.added_later("gpu_shared", p.gpu_shared, p.gpu_shared.has_value());
    if (p.gpu_shared) io("gpu_shared_note", p.gpu_shared_note);
    // The five together, where the energy was measured.
    io.added_later("joules_per_matmul", p.joules_per_matmul, p.joules_per_matmul.has_value());
    if (p.joules_per_matmul) {
        io("tflop_per_j", p.tflop_per_j);
        io("avg_watts", p.avg_watts);
        io("energy_sm_clock_mhz", p.energy_sm_clock_mhz);
        io("energy_note", p.energy_note);
    }
    // FP8's scaling and quantisation time, for FP8 points.
    io.added_later("fp8_scaling", p.fp8_scaling, p.fp8_scaling.has_value());
    if (p.fp8_scaling) io("quantize_ms", p.quantize_ms);
    // The error against FP64, the two together: every FP8 point (null where not checked), and the
    // FP32, BF16 and FP16 points that measured it.
    const bool error_measured = p.fp8_scaling.has_value() || p.error_vs_fp64_max.has_value();
    io.added_later("error_vs_fp64_max", p.error_vs_fp64_max, error_measured);
    io.added_later("error_vs_fp64_rms", p.error_vs_fp64_rms, error_measured);
}

template <typename T>
Json write_fields(const T& value) {
    Json json;
    Writer writer{json};
    fields(writer, value);
    return json;
}

template <typename T>
T read_fields(const Fields& f) {
    T value;
    const Reader reader{f};
    fields(reader, value);
    return value;
}

Json point_json(const Point& p, SampleList samples = SampleList::All) {
    Json j = write_fields(p);
    // A point that holds its count alone (read from a compact JSON) has no list to write.
    if (samples == SampleList::All && p.samples_not_kept == 0) j["samples_ms"] = p.samples_ms;
    return j;
}

// A point with every key its JSON may have: the CSV's columns, and which of them hold text.
Json column_sample() {
    Point p;
    p.ran_candidate = 0;
    p.sm_clock_mhz = 0;
    p.power_w = 0.0;
    p.clock_limits = "";
    p.gpu_host = "";
    p.gpu_wait_s = 0.0;
    p.gpu_shared = false;
    p.gpu_shared_note = "";
    p.joules_per_matmul = 0.0;
    p.tflop_per_j = 0.0;
    p.avg_watts = 0.0;
    p.energy_sm_clock_mhz = 0;
    p.energy_note = "";
    p.fp8_scaling = "";
    p.quantize_ms = 0.0;
    p.error_vs_fp64_max = 0.0;
    p.error_vs_fp64_rms = 0.0;
    return point_json(p);
}

// ---- Reading: every error names where in the document it is ---------------------------

Point read_point(const Fields& f, bool samples_listed = true) {
    Point p = read_fields<Point>(f);
    const std::int64_t count = f.integer("samples");
    if (!samples_listed) {
        p.samples_not_kept = count;
        return p;
    }
    // A compact measurement keeps the count alone.
    if (!f.has("samples_ms")) {
        if (count < 0 || (p.ok && count == 0))
            throw FormatError(f.path() + ": \"samples\" is " + std::to_string(count) +
                              (p.ok ? " for a measured point" : ""));
        p.samples_not_kept = count;
        return p;
    }
    p.samples_ms = f.numbers("samples_ms");
    if (count != static_cast<std::int64_t>(p.samples_ms.size()))
        throw FormatError(f.path() + ": \"samples\" says " + std::to_string(count) + " but samples_ms holds " +
                          std::to_string(p.samples_ms.size()));
    if (p.ok && p.samples_ms.empty()) throw FormatError(f.path() + ": a measured point without samples");
    return p;
}

Measurement read_measurement(const Json& root) {
    const Fields top(root, "document");
    if (top.text("format") != kFormat)
        throw FormatError("document: \"format\" is \"" + top.text("format") + "\", not \"" + std::string(kFormat) +
                          "\"");
    const std::int64_t version = top.integer("format_version");
    if (version != kFormatVersion)
        throw FormatError("document: format_version " + std::to_string(version) + "; this TileScope reads " +
                          std::to_string(kFormatVersion));
    Measurement measurement;
    const Fields meta = top.object("meta");
    measurement.meta.tilescope_version = meta.text("tilescope_version");
    measurement.meta.date_utc = meta.text("date_utc");
    measurement.meta.command_line = meta.text("command_line");
    measurement.meta.device = read_fields<Device>(meta.object("device"));
    measurement.meta.timing = read_fields<Timing>(meta.object("timing"));
    const Json& points = top.at("points");
    if (!points.is_array())
        throw FormatError(std::string("document.points: expected a list, got ") + points.type_name());
    for (std::size_t i = 0; i < points.size(); ++i)
        measurement.points.push_back(read_point(Fields(points[i], "points[" + std::to_string(i) + "]")));
    return measurement;
}

// A CSV cell: null is empty; text is quoted when it must be (RFC 4180).
std::string csv_cell(const Json& value) {
    if (value.is_null()) return "";
    if (!value.is_string()) return value.dump();
    const std::string& text = value.get_ref<const std::string&>();
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

}  // namespace

std::string to_json(const Measurement& measurement, SampleList samples) {
    Json meta;
    meta["tilescope_version"] = measurement.meta.tilescope_version;
    meta["date_utc"] = measurement.meta.date_utc;
    meta["command_line"] = measurement.meta.command_line;
    meta["device"] = write_fields(measurement.meta.device);
    meta["timing"] = write_fields(measurement.meta.timing);
    // No indentation (it tripled the size: a sample a line), but a line per point, so that a
    // diff of two measurements shows which points changed.
    std::string out = "{\"format\":" + Json(kFormat).dump() + ",\"format_version\":" + std::to_string(kFormatVersion) +
                      ",\"meta\":" + meta.dump() + ",\"points\":[";
    for (std::size_t i = 0; i < measurement.points.size(); ++i)
        out += (i == 0 ? "\n" : ",\n") + point_json(measurement.points[i], samples).dump();
    return out + "\n]}\n";
}

Measurement without_samples(Measurement measurement) {
    for (Point& point : measurement.points) {
        point.samples_not_kept = sample_count(point);
        point.samples_ms.clear();
        point.samples_ms.shrink_to_fit();
    }
    return measurement;
}

std::variant<Measurement, std::string> parse_json(std::string_view text, std::string_view source) {
    return read_document<Measurement>(text, source, read_measurement);
}

std::variant<Measurement, std::string> load(const std::filesystem::path& file) {
    std::string text;
    if (auto why = read_whole_file(file, text)) return *why;
    const auto first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first != std::string::npos && text[first] == '{') return parse_json(text, file.string());
    if (text.compare(first == std::string::npos ? 0 : first, 7, "series,") == 0)
        return file.string() + ": a plot exported with Save CSV (its series as drawn), not measurements; open the "
                               "JSON the lab saves (Save JSON), or a CSV or JSON of `tilescope bench --csv/--json`";
    return parse_csv(text, file.string());
}

const std::vector<std::string_view>& csv_columns() {
    static const std::vector<std::string_view> columns = [] {
        std::vector<std::string_view> names;
        // The keys of a point's JSON, in order; static storage keeps the views valid.
        static const Json sample = column_sample();
        for (auto it = sample.begin(); it != sample.end(); ++it)
            if (it.key() != "samples_ms") names.push_back(it.key());
        return names;
    }();
    return columns;
}

std::string to_csv(const Measurement& measurement) {
    std::string out;
    for (std::string_view column : csv_columns()) {
        if (!out.empty()) out += ',';
        out += column;
    }
    out += '\n';
    for (const Point& point : measurement.points) {
        const Json row = point_json(point);
        bool first = true;
        for (std::string_view column : csv_columns()) {
            if (!first) out += ',';
            first = false;
            // A column the point's JSON leaves out (ran_candidate or the clock unknown) is an empty cell.
            if (row.contains(std::string(column))) out += csv_cell(row.at(std::string(column)));
        }
        out += '\n';
    }
    return out;
}

namespace {

// The records of an RFC 4180 CSV, each with the line it starts on. Quoted cells may hold
// commas, doubled quotes and line breaks.
struct CsvRecord {
    int line = 0;
    std::vector<std::string> cells;
};

// Columns added since the first CSVs, which older ones may lack.
bool added_later(std::string_view column) {
    return column == "ran_candidate" || column == "sm_clock_mhz" || column == "power_w" || column == "clock_limits" ||
           column == "gpu_host" || column == "gpu_wait_s" || column == "gpu_shared" || column == "gpu_shared_note" ||
           column == "joules_per_matmul" || column == "tflop_per_j" || column == "avg_watts" ||
           column == "energy_sm_clock_mhz" || column == "energy_note" || column == "fp8_scaling" ||
           column == "quantize_ms" || column == "error_vs_fp64_max" || column == "error_vs_fp64_rms";
}

std::vector<CsvRecord> split_csv(std::string_view text, std::string_view source) {
    std::vector<CsvRecord> records;
    CsvRecord record{1, {}};
    std::string cell;
    int line = 1;
    bool quoted = false, cell_started = false;
    const auto end_record = [&] {
        record.cells.push_back(std::move(cell));
        cell.clear();
        cell_started = false;
        const bool blank = record.cells.size() == 1 && record.cells[0].empty();
        if (!blank) records.push_back(std::move(record));
        record = CsvRecord{line, {}};
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                if (c == '\n') ++line;
                cell += c;
            }
            continue;
        }
        if (c == '"' && !cell_started) {
            quoted = cell_started = true;
        } else if (c == ',') {
            record.cells.push_back(std::move(cell));
            cell.clear();
            cell_started = false;
        } else if (c == '\n') {
            ++line;
            end_record();
        } else if (c != '\r') {
            cell += c;
            cell_started = true;
        }
    }
    if (quoted) throw FormatError(std::string(source) + ":" + std::to_string(record.line) + ": a quote is never closed");
    if (!cell.empty() || !record.cells.empty()) end_record();
    return records;
}

// A cell as the JSON value point_json() would have written: text columns stay text; in the
// others an empty cell is null, true/false a flag, and anything else must be a number.
Json csv_value(const std::string& cell, bool text_column, const std::string& where) {
    if (text_column) return cell;
    if (cell.empty()) return nullptr;
    if (cell == "true" || cell == "false") return cell == "true";
    std::size_t used = 0;
    try {
        if (cell.find_first_of(".eEnN") == std::string::npos) {
            const long long whole = std::stoll(cell, &used);
            if (used == cell.size()) return whole;
        } else {
            const double number = std::stod(cell, &used);
            if (used == cell.size()) return number;
        }
    } catch (const std::exception&) {
    }
    throw FormatError(where + ": expected a number, true, false or nothing, got \"" + cell + "\"");
}

Measurement read_csv(std::string_view text, std::string_view source) {
    const std::vector<CsvRecord> records = split_csv(text, source);
    if (records.empty()) throw FormatError(std::string(source) + ": empty: no header line");
    const CsvRecord& header = records.front();
    const Json sample = column_sample();
    std::vector<int> column_of;  // csv_columns()[i] is cell column_of[i] of a row; -1: absent
    for (std::string_view name : csv_columns()) {
        const auto found = std::find(header.cells.begin(), header.cells.end(), name);
        // Columns added since the first CSVs may be missing from older ones.
        if (found == header.cells.end() && added_later(name)) {
            column_of.push_back(-1);
            continue;
        }
        if (found == header.cells.end())
            throw FormatError(std::string(source) + ":1: no column \"" + std::string(name) +
                              "\": not a CSV of `tilescope bench --csv`");
        column_of.push_back(static_cast<int>(found - header.cells.begin()));
    }
    Measurement measurement;
    measurement.from_csv = true;
    for (std::size_t r = 1; r < records.size(); ++r) {
        const CsvRecord& row = records[r];
        const std::string at = std::string(source) + ":" + std::to_string(row.line);
        if (row.cells.size() != header.cells.size())
            throw FormatError(at + ": " + std::to_string(row.cells.size()) + " cells, but the header names " +
                              std::to_string(header.cells.size()) + " columns");
        Json point = Json::object();
        for (std::size_t i = 0; i < csv_columns().size(); ++i) {
            if (column_of[i] < 0) continue;
            const std::string name(csv_columns()[i]);
            point[name] = csv_value(row.cells[static_cast<std::size_t>(column_of[i])], sample.at(name).is_string(),
                                    at + ": column " + name);
        }
        measurement.points.push_back(read_point(Fields(point, at), false));
    }
    return measurement;
}

}  // namespace

std::string point_to_line(const Point& point) { return point_json(point).dump(); }

std::variant<Point, std::string> parse_point_line(std::string_view line, std::string_view source) {
    return read_document<Point>(line, source, [](const Json& root) { return read_point(Fields(root, "point")); });
}

std::int64_t sample_count(const Point& point) {
    return point.samples_ms.empty() ? point.samples_not_kept : static_cast<std::int64_t>(point.samples_ms.size());
}

std::variant<Measurement, std::string> parse_csv(std::string_view text, std::string_view source) {
    try {
        return read_csv(text, source);
    } catch (const FormatError& e) {
        return std::string(e.what());
    }
}

std::optional<std::string> save_text(const std::filesystem::path& file, std::string_view text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write " + file.string() + " (does its folder exist, and may it be written?)";
    out << text;
    out.close();
    if (!out) return "writing " + file.string() + " failed (disk full?)";
    return std::nullopt;
}

}  // namespace ts::record
