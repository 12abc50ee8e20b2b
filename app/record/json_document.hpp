// json_document.hpp — reading TileScope's JSON files (measurements, kernel traces) so that
// every error says where: "run.json:12:5: not valid JSON: ..." for broken syntax,
// "trace.json: loads[7]: expected a whole number, got string" for a wrong field.
// Internal to app/record/.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ts::record {

// Ordered, so files list their keys in the order they are written rather than alphabetically.
using Json = nlohmann::ordered_json;

struct FormatError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One JSON object and its path in the document ("points[3]"), for messages.
class Fields {
public:
    Fields(const Json& object, std::string path) : m_object(object), m_path(std::move(path)) {
        if (!object.is_object()) throw FormatError(m_path + ": expected an object, got " + object.type_name());
    }

    const Json& at(const char* key) const {
        const auto found = m_object.find(key);
        if (found == m_object.end()) throw FormatError(m_path + ": missing field \"" + key + "\"");
        return *found;
    }
    Fields object(const char* key) const { return Fields(at(key), m_path + "." + key); }
    bool has(const char* key) const { return m_object.contains(key); }

    std::string text(const char* key) const { return checked(key, &Json::is_string, "a string").get<std::string>(); }
    bool flag(const char* key) const { return checked(key, &Json::is_boolean, "true or false").get<bool>(); }
    double number(const char* key) const { return checked(key, &Json::is_number, "a number").get<double>(); }
    std::int64_t integer(const char* key) const {
        return checked(key, &Json::is_number_integer, "a whole number").get<std::int64_t>();
    }

    // A field that may be null.
    std::optional<double> maybe_number(const char* key) const {
        return at(key).is_null() ? std::nullopt : std::optional(number(key));
    }
    std::optional<std::int64_t> maybe_integer(const char* key) const {
        return at(key).is_null() ? std::nullopt : std::optional(integer(key));
    }
    std::optional<bool> maybe_flag(const char* key) const {
        return at(key).is_null() ? std::nullopt : std::optional(flag(key));
    }

    std::vector<double> numbers(const char* key) const {
        const Json& list = checked(key, &Json::is_array, "a list of numbers");
        std::vector<double> values;
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_number())
                throw FormatError(m_path + "." + key + "[" + std::to_string(i) + "]: expected a number, got " +
                                  list[i].type_name());
            values.push_back(list[i].get<double>());
        }
        return values;
    }

    std::vector<std::int64_t> integers(const char* key) const {
        const Json& list = checked(key, &Json::is_array, "a list of whole numbers");
        std::vector<std::int64_t> values;
        values.reserve(list.size());
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_number_integer())
                throw FormatError(m_path + "." + key + "[" + std::to_string(i) + "]: expected a whole number, got " +
                                  list[i].type_name());
            values.push_back(list[i].get<std::int64_t>());
        }
        return values;
    }

    const std::string& path() const { return m_path; }

private:
    const Json& checked(const char* key, bool (Json::*is)() const noexcept, const char* expected) const {
        const Json& value = at(key);
        if (!(value.*is)())
            throw FormatError(m_path + "." + key + ": expected " + expected + ", got " + value.type_name());
        return value;
    }

    const Json& m_object;
    std::string m_path;
};

// Line and column (from 1) of byte `offset` in `text`.
inline std::pair<int, int> line_and_column(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    const std::string_view before = text.substr(0, offset);
    const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t line_start = before.rfind('\n');
    const std::size_t column = line_start == std::string_view::npos ? offset + 1 : offset - line_start;
    return {line, static_cast<int>(column)};
}

// Parses `text` and hands the document to `read` (which throws FormatError); errors start
// with `source`.
template <typename Result, typename Read>
std::variant<Result, std::string> read_document(std::string_view text, std::string_view source, Read read) {
    const std::string where(source);
    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::parse_error& e) {
        // nlohmann's message repeats the position; keep only what went wrong.
        std::string what = e.what();
        const std::size_t reason = what.find(": ");
        if (reason != std::string::npos) what = what.substr(reason + 2);
        const auto [line, column] = line_and_column(text, e.byte > 0 ? e.byte - 1 : 0);
        return where + ":" + std::to_string(line) + ":" + std::to_string(column) + ": not valid JSON: " + what;
    } catch (const Json::exception& e) {
        // A number too large for any type, found by fuzzing: nlohmann says out_of_range.
        return where + ": not valid JSON: " + e.what();
    }
    try {
        return read(root);
    } catch (const FormatError& e) {
        return where + ": " + e.what();
    }
}

// Reads the whole of `file` into `text`. Returns why it could not: "run.json: cannot open the
// file (missing, or no permission to read it)", "run.json: reading failed".
inline std::optional<std::string> read_whole_file(const std::filesystem::path& file, std::string& text) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return file.string() + ": cannot open the file (missing, or no permission to read it)";
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return file.string() + ": reading failed";
    text = buffer.str();
    return std::nullopt;
}

template <typename Result, typename Read>
std::variant<Result, std::string> load_document(const std::filesystem::path& file, Read read) {
    std::string text;
    if (auto why = read_whole_file(file, text)) return *why;
    return read_document<Result>(text, file.string(), read);
}

}  // namespace ts::record
