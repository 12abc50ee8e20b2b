#include "model/user_kernel/launch.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <vector>

#include "model/format.hpp"

namespace ts::model {

namespace {

// A recursive-descent reader of one expression:
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/' | '%') unary)*
//   unary   := '-' unary | primary
//   primary := number | M | N | K | '(' sum ')' | name '(' sum ',' sum ')'
// The first error stops it; the value is then meaningless.
class ExpressionReader {
public:
    ExpressionReader(std::string_view text, std::int64_t m, std::int64_t n, std::int64_t k)
        : m_text(text), m_values{m, n, k} {}

    std::variant<std::int64_t, std::string> read() {
        if (m_text.size() > kMostExpressionChars)
            return format_text("the expression has {} characters; at most {}", m_text.size(), kMostExpressionChars);
        skip_spaces();
        if (m_at == m_text.size()) return std::string("the expression is empty: write a number or M, N, K");
        const std::int64_t value = sum();
        skip_spaces();
        if (m_error.empty() && m_at < m_text.size()) fail(format_text("unexpected '{}'", m_text[m_at]));
        if (!m_error.empty()) return m_error;
        return value;
    }

private:
    void fail(std::string why) {
        if (m_error.empty()) m_error = format_text("{} at column {} of \"{}\"", why, m_at + 1, m_text);
    }
    void skip_spaces() {
        while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at]))) ++m_at;
    }
    bool take(char c) {
        skip_spaces();
        if (m_at < m_text.size() && m_text[m_at] == c) {
            ++m_at;
            return true;
        }
        return false;
    }
    // `left op right`, or an error when the result does not fit in 64 bits.
    std::int64_t apply(char op, std::int64_t left, std::int64_t right) {
        std::int64_t result = 0;
        bool overflowed = false;
        switch (op) {
            case '+': overflowed = __builtin_add_overflow(left, right, &result); break;
            case '-': overflowed = __builtin_sub_overflow(left, right, &result); break;
            case '*': overflowed = __builtin_mul_overflow(left, right, &result); break;
            default: return divide(left, right, op == '%');
        }
        if (overflowed) fail("the value passes 2^63");
        return result;
    }

    // `operand`s joined left to right by any of `ops`: a sum of products, a product of unaries.
    template <typename Operand>
    std::int64_t chain(std::string_view ops, Operand operand) {
        std::int64_t value = operand();
        while (m_error.empty()) {
            skip_spaces();
            if (m_at == m_text.size() || ops.find(m_text[m_at]) == std::string_view::npos) break;
            const char op = m_text[m_at++];
            const std::int64_t right = operand();
            if (!m_error.empty()) break;
            value = apply(op, value, right);
        }
        return value;
    }
    std::int64_t sum() { return chain("+-", [this] { return product(); }); }
    std::int64_t product() { return chain("*/%", [this] { return unary(); }); }

    std::int64_t divide(std::int64_t left, std::int64_t right, bool remainder) {
        if (right == 0) {
            fail("division by zero");
            return 0;
        }
        if (left == std::numeric_limits<std::int64_t>::min() && right == -1) {
            fail("the value passes 2^63");
            return 0;
        }
        return remainder ? left % right : left / right;
    }

    std::int64_t unary() {
        if (++m_depth > kMostExpressionDepth) {
            fail(format_text("more than {} brackets, calls and signs inside each other", kMostExpressionDepth));
            return 0;
        }
        std::int64_t value = 0;
        if (take('-')) {
            value = apply('-', 0, unary());
        } else {
            value = primary();
        }
        --m_depth;
        return value;
    }

    std::int64_t primary() {
        skip_spaces();
        if (m_at == m_text.size()) {
            fail("the expression ends too soon");
            return 0;
        }
        const char c = m_text[m_at];
        if (take('(')) {
            const std::int64_t value = sum();
            if (m_error.empty() && !take(')')) fail("a '(' is not closed");
            return value;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
        fail(format_text("unexpected '{}'", c));
        return 0;
    }

    std::int64_t number() {
        std::int64_t value = 0;
        while (m_at < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_at]))) {
            std::int64_t result = 0;
            const bool over = __builtin_mul_overflow(value, std::int64_t{10}, &result) ||
                              __builtin_add_overflow(result, std::int64_t{m_text[m_at] - '0'}, &result);
            ++m_at;
            if (over) {
                fail("the number passes 2^63");
                return 0;
            }
            value = result;
        }
        return value;
    }

    std::int64_t name() {
        const std::size_t begin = m_at;
        while (m_at < m_text.size() &&
               (std::isalnum(static_cast<unsigned char>(m_text[m_at])) || m_text[m_at] == '_'))
            ++m_at;
        const std::string_view word = m_text.substr(begin, m_at - begin);
        if (word == "M") return m_values[0];
        if (word == "N") return m_values[1];
        if (word == "K") return m_values[2];
        if (word != "cdiv" && word != "min" && word != "max") {
            m_at = begin;
            fail(format_text("unknown name '{}': use M, N, K, cdiv(a, b), min(a, b) or max(a, b)", word));
            return 0;
        }
        if (!take('(')) {
            fail(format_text("{} needs two arguments in brackets: {}(a, b)", word, word));
            return 0;
        }
        const std::int64_t a = sum();
        if (m_error.empty() && !take(',')) fail(format_text("{} needs two arguments: {}(a, b)", word, word));
        const std::int64_t b = m_error.empty() ? sum() : 0;
        if (m_error.empty() && !take(')')) fail(format_text("{}( is not closed", word));
        if (!m_error.empty()) return 0;
        if (word == "min") return std::min(a, b);
        if (word == "max") return std::max(a, b);
        if (b <= 0 || a < 0) {
            fail(format_text("cdiv({}, {}) needs a ≥ 0 and b > 0", a, b));
            return 0;
        }
        return a / b + (a % b != 0);
    }

    std::string_view m_text;
    std::array<std::int64_t, 3> m_values;
    std::size_t m_at = 0;
    int m_depth = 0;
    std::string m_error;
};

// The launch lines, in the order with_launch writes missing ones.
struct LaunchLine {
    std::string_view key;  // "grid", "block", "shared"
    int parts;             // expressions on the line
};
constexpr LaunchLine kLaunchLines[] = {{"grid", 2}, {"block", 2}, {"shared", 1}};

// Splits "a, b" at commas outside brackets.
std::vector<std::string> split_top_level(std::string_view text) {
    std::vector<std::string> parts(1);
    int depth = 0;
    for (const char c : text) {
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if (c == ',' && depth == 0) parts.emplace_back();
        else parts.back() += c;
    }
    for (std::string& part : parts) {
        const std::size_t first = part.find_first_not_of(" \t");
        const std::size_t last = part.find_last_not_of(" \t\r");
        part = first == std::string::npos ? std::string() : part.substr(first, last - first + 1);
    }
    return parts;
}

// The key of a launch line ("// grid: …" → "grid") and what follows its colon, or nullopt.
std::optional<std::pair<std::string_view, std::string_view>> launch_line(std::string_view line) {
    std::size_t at = line.find_first_not_of(" \t");
    if (at == std::string_view::npos || line.substr(at, 2) != "//") return std::nullopt;
    at = line.find_first_not_of(" \t", at + 2);
    if (at == std::string_view::npos) return std::nullopt;
    for (const LaunchLine& l : kLaunchLines) {
        const std::string_view rest = line.substr(at);
        if (rest.starts_with(l.key) && rest.size() > l.key.size() && rest[l.key.size()] == ':')
            return std::pair{l.key, rest.substr(l.key.size() + 1)};
    }
    return std::nullopt;
}

std::string line_text(std::string_view key, const LaunchExpressions& launch) {
    if (key == "grid") return format_text("// grid:   {}, {}", launch.grid_x, launch.grid_y);
    if (key == "block") return format_text("// block:  {}, {}", launch.block_x, launch.block_y);
    return format_text("// shared: {}", launch.shared);
}

}  // namespace

std::variant<std::int64_t, std::string> evaluate_launch_expression(std::string_view text, std::int64_t m,
                                                                   std::int64_t n, std::int64_t k) {
    return ExpressionReader(text, m, n, k).read();
}

std::variant<UserLaunchShape, std::string> resolve_launch(const LaunchExpressions& launch, const Problem& problem) {
    UserLaunchShape shape;
    const std::pair<const char*, std::pair<const std::string*, std::int64_t*>> fields[] = {
        {"grid x", {&launch.grid_x, &shape.grid_x}},   {"grid y", {&launch.grid_y, &shape.grid_y}},
        {"block x", {&launch.block_x, &shape.block_x}}, {"block y", {&launch.block_y, &shape.block_y}},
        {"shared", {&launch.shared, &shape.shared_bytes}}};
    for (const auto& [label, field] : fields) {
        auto value = evaluate_launch_expression(*field.first, problem.m, problem.n, problem.k);
        if (auto* why = std::get_if<std::string>(&value)) return format_text("{}: {}", label, *why);
        *field.second = std::get<std::int64_t>(value);
    }
    return shape;
}

std::optional<std::string> launch_refused(const UserLaunchShape& s, const DeviceLimits& limits) {
    if (s.grid_x < 1 || s.grid_y < 1 || s.block_x < 1 || s.block_y < 1)
        return format_text("every grid and block dimension must be at least 1, got grid ({}, {}), block ({}, {})",
                           s.grid_x, s.grid_y, s.block_x, s.block_y);
    if (s.shared_bytes < 0) return format_text("dynamic shared memory cannot be negative ({} bytes)", s.shared_bytes);
    if (s.block_x > limits.max_block_dim_x || s.block_y > limits.max_block_dim_y)
        return format_text("a block may be at most {} threads wide and {} high on the {}; ({}, {}) asked",
                           limits.max_block_dim_x, limits.max_block_dim_y, limits.name, s.block_x, s.block_y);
    if (s.block_x * s.block_y > limits.max_threads_per_block)
        return format_text("a block of {} × {} = {} threads: the {} allows {} threads in a block", s.block_x,
                           s.block_y, s.block_x * s.block_y, limits.name, limits.max_threads_per_block);
    if (s.grid_x > limits.max_grid_x || s.grid_y > limits.max_grid_y)
        return format_text("a grid of ({}, {}) blocks: the {} allows at most ({}, {})", s.grid_x, s.grid_y,
                           limits.name, limits.max_grid_x, limits.max_grid_y);
    if (s.shared_bytes > limits.optin_shared_per_block)
        return format_text("{} bytes of dynamic shared memory: one block of the {} may have at most {} ({} KiB)",
                           s.shared_bytes, limits.name, limits.optin_shared_per_block,
                           limits.optin_shared_per_block / 1024);
    return std::nullopt;
}

std::string describe_launch(const UserLaunchShape& s) {
    return format_text("grid ({}, {}), block ({}, {}), {} bytes of dynamic shared memory", s.grid_x, s.grid_y,
                       s.block_x, s.block_y, s.shared_bytes);
}

LaunchExpressions launch_from_source(std::string_view source, std::string* problem) {
    LaunchExpressions launch;
    const std::vector<std::string_view> lines = split_lines(source);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto found = launch_line(lines[i]);
        if (!found) continue;
        const auto [key, rest] = *found;
        const std::vector<std::string> parts = split_top_level(rest);
        const int wanted = key == "shared" ? 1 : 2;
        bool empty_part = false;
        for (const std::string& part : parts) empty_part |= part.empty();
        if (static_cast<int>(parts.size()) != wanted || empty_part) {
            if (problem && problem->empty())
                *problem = format_text("line {}: // {}: needs {}", i + 1, key,
                                       wanted == 2 ? "two expressions, x and y" : "one expression, the bytes");
            continue;
        }
        if (key == "grid") launch.grid_x = parts[0], launch.grid_y = parts[1];
        if (key == "block") launch.block_x = parts[0], launch.block_y = parts[1];
        if (key == "shared") launch.shared = parts[0];
    }
    return launch;
}

std::string with_launch(std::string_view source, const LaunchExpressions& launch) {
    std::string out;
    std::string missing;
    bool seen[3] = {false, false, false};
    for (const std::string_view line : split_lines(source)) {
        if (const auto found = launch_line(line)) {
            for (std::size_t i = 0; i < 3; ++i)
                if (kLaunchLines[i].key == found->first) seen[i] = true;
            out += line_text(found->first, launch);
        } else {
            out += line;
        }
        out += '\n';
    }
    for (std::size_t i = 0; i < 3; ++i)
        if (!seen[i]) missing += line_text(kLaunchLines[i].key, launch) + "\n";
    // split_lines leaves out a last empty line: keep the source's own ending.
    if (!source.empty() && source.back() != '\n' && !out.empty()) out.pop_back();
    return missing + out;
}

}  // namespace ts::model
