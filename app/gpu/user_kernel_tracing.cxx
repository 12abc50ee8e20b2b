#include "user_kernel_tracing.hpp"

#include <algorithm>
#include <cctype>

#include "model/format.hpp"
#include "model/user_kernel/source.hpp"
#include "model/user_kernel/user_trace.hpp"

namespace ts::gpu {

namespace {

// Compiled before the learner's kernel when it is recorded. Its Event is model::UserEvent, field
// for field; ts_rec_buffers is filled by the worker before the launch.
constexpr const char* kPrelude = R"prelude(// TileScope's tracing prelude (gpu/user_kernel_tracing.cxx).
namespace ts_rec {
struct Event {
    int block;
    short thread_x, thread_y;
    int barriers;
    int kind_index;  // kind << 30 | index
};
static_assert(sizeof(Event) == 16, "the host reads 16-byte notes");
struct Buffers {
    Event* events;
    unsigned long long capacity;
    unsigned long long* count;
    int* barriers;                  // by thread of the grid: barriers passed
    unsigned int* block_sm;         // by block
    unsigned long long* times_ns;   // by block, timed_barriers + 1 each
    unsigned long long* times_cycles;
    int timed_barriers;
    unsigned int* shared_info;      // by shared array: its first word, rows, columns (0: extern)
};
}  // namespace ts_rec

__device__ ts_rec::Buffers ts_rec_buffers;

namespace ts_rec {
__device__ inline int block_linear() { return blockIdx.y * gridDim.x + blockIdx.x; }
__device__ inline int thread_linear() {
    return block_linear() * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
}
__device__ inline bool first_thread() { return threadIdx.x == 0 && threadIdx.y == 0; }
__device__ inline void stamp(int slot) {
    const Buffers& b = ts_rec_buffers;
    if (slot > b.timed_barriers) return;
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    const unsigned long long at = static_cast<unsigned long long>(block_linear()) * (b.timed_barriers + 1) + slot;
    b.times_ns[at] = now;
    b.times_cycles[at] = clock64();
}
__device__ inline void note(int kind, long long index) {
    const Buffers& b = ts_rec_buffers;
    // Thread (0, 0)'s first access starts its block's clock and names its SM.
    if (first_thread() && b.times_ns[static_cast<unsigned long long>(block_linear()) * (b.timed_barriers + 1)] == 0) {
        unsigned int sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        b.block_sm[block_linear()] = sm;
        stamp(0);
    }
    const unsigned long long at = atomicAdd(b.count, 1ULL);
    if (at < b.capacity)
        b.events[at] = Event{block_linear(), static_cast<short>(threadIdx.x), static_cast<short>(threadIdx.y),
                             b.barriers[thread_linear()], (kind << 30) | static_cast<int>(index & 0x3FFFFFFF)};
}
__device__ inline void barrier() {
    __syncthreads();
    const int passed = ++ts_rec_buffers.barriers[thread_linear()];
    if (first_thread()) stamp(passed);
}
template <int Kind>
struct In {
    const float* p;
    __device__ float operator[](long long i) const {
        note(Kind, i);
        return p[i];
    }
};
struct Out {
    float* p;
    struct Cell {
        float* p;
        long long i;
        __device__ Cell& operator=(float v) {
            note(2, i);
            p[i] = v;
            return *this;
        }
        __device__ Cell& operator+=(float v) { return *this = p[i] + v; }
        __device__ operator float() const { return p[i]; }
    };
    __device__ Cell operator[](long long i) const { return Cell{p, i}; }
};

// Shared memory. Each `__shared__ float name[R][C];` (or [N]) of the kernel becomes a
// Shared<Id, R, C> named ts_rec_name, and `name` a macro for ts_rec_name.at(__LINE__), so every
// use names its own line; `extern __shared__ float name[];` becomes a SharedPointer into the
// dynamic shared memory. An element read or written is noted with its array, its shared-memory
// word (for the banks), the line and whether it was a write.
__device__ inline unsigned int word_of(const float* p) {
    return static_cast<unsigned int>(__cvta_generic_to_shared(p)) >> 2;
}
__device__ inline void note_shared(int array, bool write, const float* element, const float* first, int rows,
                                   int cols, int line) {
    unsigned int* info = ts_rec_buffers.shared_info + 3 * array;
    info[0] = word_of(first);  // every thread writes the same three numbers
    info[1] = rows;
    info[2] = cols;
    const int line_bits = line > 0 && line < 1024 ? line : 0;
    note(3, (array << 27) | ((write ? 1 : 0) << 26) | (line_bits << 16) | static_cast<int>(word_of(element) & 0xFFFF));
}
template <int Id>
struct SharedCell {
    float* p;
    const float* first;
    int rows, cols, line;
    __device__ operator float() const {
        note_shared(Id, false, p, first, rows, cols, line);
        return *p;
    }
    __device__ const SharedCell& operator=(float v) const {
        note_shared(Id, true, p, first, rows, cols, line);
        *p = v;
        return *this;
    }
    __device__ const SharedCell& operator=(const SharedCell& other) const { return *this = static_cast<float>(other); }
    __device__ const SharedCell& operator+=(float v) const { return *this = static_cast<float>(*this) + v; }
    __device__ const SharedCell& operator-=(float v) const { return *this = static_cast<float>(*this) - v; }
    __device__ const SharedCell& operator*=(float v) const { return *this = static_cast<float>(*this) * v; }
};
template <int Id>
struct SharedPointer {
    float* p;
    const float* first;
    int rows, cols, line;
    __device__ SharedCell<Id> operator[](long long i) const { return {p + i, first, rows, cols, line}; }
    __device__ SharedPointer operator+(long long i) const { return {p + i, first, rows, cols, line}; }
    __device__ SharedPointer operator-(long long i) const { return {p - i, first, rows, cols, line}; }
};
template <int Id, int Rows, int Cols>
struct SharedRow {
    float* row;
    const float* first;
    int line;
    __device__ SharedCell<Id> operator[](long long col) const { return {row + col, first, Rows, Cols, line}; }
};
template <int Id, int Rows, int Cols>
struct SharedView {
    float* first;
    int line;
    __device__ SharedRow<Id, Rows, Cols> operator[](long long row) const { return {first + row * Cols, first, line}; }
};
template <int Id, int Rows, int Cols>
struct Shared {
    float data[Rows * Cols];
    __device__ SharedView<Id, Rows, Cols> at(int line) { return {data, line}; }
};
template <int Id, int Size>
struct Shared1 {
    float data[Size];
    __device__ SharedPointer<Id> at(int line) { return {data, data, Size, 1, line}; }
};
}  // namespace ts_rec

#define __syncthreads() ts_rec::barrier()
#line 1
)prelude";

constexpr const char* kTracingParameters =
    "ts_rec::In<0> A, ts_rec::In<1> B, ts_rec::Out C, int M, int N, int K";

// Where code is, outside comments, strings and character literals: code[i] is true for a byte
// of code. Enough for finding declarations and braces; the compiler reads the rest.
std::vector<bool> code_bytes(const std::string& text) {
    std::vector<bool> code(text.size(), true);
    for (std::size_t i = 0; i < text.size();) {
        if (text.compare(i, 2, "//") == 0) {
            const std::size_t end = std::min(text.find('\n', i), text.size());
            std::fill(code.begin() + static_cast<std::ptrdiff_t>(i), code.begin() + static_cast<std::ptrdiff_t>(end), false);
            i = end;
        } else if (text.compare(i, 2, "/*") == 0) {
            const std::size_t close = text.find("*/", i + 2);
            const std::size_t end = close == std::string::npos ? text.size() : close + 2;
            std::fill(code.begin() + static_cast<std::ptrdiff_t>(i), code.begin() + static_cast<std::ptrdiff_t>(end), false);
            i = end;
        } else if (text[i] == '"' || text[i] == '\'') {
            const char quote = text[i];
            std::size_t j = i + 1;
            while (j < text.size() && text[j] != quote && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
            const std::size_t end = std::min(j + 1, text.size());
            std::fill(code.begin() + static_cast<std::ptrdiff_t>(i), code.begin() + static_cast<std::ptrdiff_t>(end), false);
            i = end;
        } else {
            ++i;
        }
    }
    return code;
}

bool identifier_byte(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// One edit of the source: `length` bytes at `at` replaced by `text`.
struct Edit {
    std::size_t at = 0, length = 0;
    std::string text;
};

int line_at(const std::string& text, std::size_t at) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

// The shared arrays of `source` made to note their accesses (the prelude's Shared, Shared1,
// SharedPointer), as edits, or why they cannot be: a declaration of another form, more arrays than
// a note can name.
std::variant<std::vector<Edit>, std::string> shared_edits(const std::string& source, std::vector<std::string>& names) {
    using Result = std::variant<std::vector<Edit>, std::string>;
    const std::vector<bool> code = code_bytes(source);
    const auto is_code = [&](std::size_t i) { return i < source.size() && code[i]; };
    const auto skip_space = [&](std::size_t i) {
        while (i < source.size() && std::isspace(static_cast<unsigned char>(source[i])) != 0) ++i;
        return i;
    };
    const auto word_at = [&](std::size_t i) {
        std::size_t j = i;
        while (j < source.size() && identifier_byte(source[j])) ++j;
        return source.substr(i, j - i);
    };
    const std::string keyword = "__shared__";
    std::vector<Edit> edits;
    for (std::size_t at = source.find(keyword); at != std::string::npos; at = source.find(keyword, at + keyword.size())) {
        if (!is_code(at) || (at > 0 && identifier_byte(source[at - 1])) || identifier_byte(source[std::min(at + keyword.size(), source.size() - 1)]))
            continue;
        const int line = line_at(source, at);
        const std::string form = format_text(
            "line {}: shared memory is recorded where it is declared as `__shared__ float name[R][C];`, "
            "`__shared__ float name[N];` or `extern __shared__ float name[];`, one array to a statement",
            line);
        // `extern` before it, if any.
        std::size_t start = at;
        bool dynamic = false;
        {
            std::size_t before = at;
            while (before > 0 && std::isspace(static_cast<unsigned char>(source[before - 1])) != 0) --before;
            if (before >= 6 && source.compare(before - 6, 6, "extern") == 0 && (before == 6 || !identifier_byte(source[before - 7]))) {
                start = before - 6;
                dynamic = true;
            }
        }
        std::size_t i = skip_space(at + keyword.size());
        if (word_at(i) != "float") return Result(std::in_place_index<1>, form);
        i = skip_space(i + 5);
        const std::string name = word_at(i);
        if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) != 0 || name.starts_with("ts_rec"))
            return Result(std::in_place_index<1>, form);
        i = skip_space(i + name.size());
        std::vector<std::string> dims;
        while (i < source.size() && source[i] == '[') {
            int depth = 0;
            std::size_t close = i;
            for (; close < source.size(); ++close) {
                if (source[close] == '[') ++depth;
                if (source[close] == ']' && --depth == 0) break;
            }
            if (close >= source.size()) return Result(std::in_place_index<1>, form);
            dims.push_back(source.substr(i + 1, close - i - 1));
            i = skip_space(close + 1);
        }
        if (i >= source.size() || source[i] != ';') return Result(std::in_place_index<1>, form);
        const bool blank = dims.size() == 1 && dims[0].find_first_not_of(" \t") == std::string::npos;
        if (dynamic ? !blank : (dims.empty() || dims.size() > 2 || blank)) return Result(std::in_place_index<1>, form);
        const int id = static_cast<int>(names.size());
        if (id >= model::kMostSharedArrays)
            return Result(std::in_place_index<1>, format_text("line {}: a trace names at most {} shared arrays", line,
                                                              model::kMostSharedArrays));
        names.push_back(name);
        const std::string stored = "ts_rec_" + name;
        std::string declaration;
        std::string use;
        if (dynamic) {
            declaration = format_text("extern __shared__ float {}[];", stored);
            // format_text knows no escaped braces: the initializer's own are written out.
            use = format_text("(ts_rec::SharedPointer<{}>", id) + "{" + format_text("{}, {}, 0, 0, __LINE__", stored, stored) + "})";
        } else {
            declaration = dims.size() == 2
                              ? format_text("__shared__ ts_rec::Shared<{}, ({}), ({})> {};", id, dims[0], dims[1], stored)
                              : format_text("__shared__ ts_rec::Shared1<{}, ({})> {};", id, dims[0], stored);
            use = format_text("{}.at(__LINE__)", stored);
        }
        // As many lines as the declaration took, so every line after it keeps its number.
        declaration.append(static_cast<std::size_t>(std::count(source.begin() + static_cast<std::ptrdiff_t>(start),
                                                               source.begin() + static_cast<std::ptrdiff_t>(i), '\n')),
                           '\n');
        // The name stands for the accessor from its line to the end of the block around it; the
        // #line after each directive gives the next line its own number again.
        const std::size_t newline_before = source.rfind('\n', start);
        const std::size_t line_start = newline_before == std::string::npos ? 0 : newline_before + 1;
        edits.push_back({line_start, 0, format_text("#define {} {}\n#line {}\n", name, use, line)});
        edits.push_back({start, i + 1 - start, declaration});
        int depth = 0;
        std::size_t end = i + 1;
        for (; end < source.size(); ++end) {
            if (!code[end]) continue;
            if (source[end] == '{') ++depth;
            if (source[end] == '}' && --depth < 0) break;
        }
        if (end < source.size())
            edits.push_back({end + 1, 0, format_text("\n#undef {}\n#line {}\n", name, line_at(source, end))});
    }
    return Result(std::in_place_index<0>, std::move(edits));
}

std::string apply(const std::string& source, std::vector<Edit> edits) {
    // From the end, so each edit's place is still where it was found; at one place, in the order made.
    std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at > b.at; });
    std::string out = source;
    for (auto it = edits.begin(); it != edits.end();) {
        auto same = it;
        std::string text;
        std::size_t length = 0;
        while (same != edits.end() && same->at == it->at) {
            text += same->text;
            length = std::max(length, same->length);
            ++same;
        }
        out.replace(it->at, length, text);
        it = same;
    }
    return out;
}

// The parameter list of matmul replaced by the accessors', line for line.
std::variant<std::string, std::string> with_tracing_parameters(const std::string& source) {
    using Result = std::variant<std::string, std::string>;
    const std::string name(model::kUserKernelName);
    // The kernel's parameter list: after "matmul", spaces, "(", to the matching ")".
    std::size_t at = 0;
    std::size_t open = std::string::npos;
    while ((at = source.find(name, at)) != std::string::npos) {
        std::size_t next = at + name.size();
        while (next < source.size() && (source[next] == ' ' || source[next] == '\t' || source[next] == '\n')) ++next;
        if (next < source.size() && source[next] == '(') {
            open = next;
            break;
        }
        at += name.size();
    }
    if (open == std::string::npos)
        return Result(std::in_place_index<1>, std::string("no matmul( parameter list to record through"));
    int depth = 0;
    std::size_t close = open;
    for (; close < source.size(); ++close) {
        if (source[close] == '(') ++depth;
        if (source[close] == ')' && --depth == 0) break;
    }
    if (close >= source.size())
        return Result(std::in_place_index<1>, std::string("matmul('s parameter list is not closed"));
    // The same number of lines, so every line after it keeps its number.
    const auto newlines = std::count(source.begin() + static_cast<std::ptrdiff_t>(open),
                                     source.begin() + static_cast<std::ptrdiff_t>(close), '\n');
    std::string parameters = kTracingParameters;
    parameters.append(static_cast<std::size_t>(newlines), '\n');
    return Result(std::in_place_index<0>, source.substr(0, open + 1) + parameters + source.substr(close));
}

}  // namespace

std::variant<TracingBuild, std::string> tracing_source(const std::string& source, bool record_shared) {
    using Result = std::variant<TracingBuild, std::string>;
    TracingBuild build;
    std::string text = source;
    if (record_shared) {
        auto edits = shared_edits(source, build.shared_names);
        if (auto* why = std::get_if<std::string>(&edits)) {
            build.shared_not_recorded = *why;
            build.shared_names.clear();
        } else {
            text = apply(source, std::get<0>(std::move(edits)));
        }
    } else {
        build.shared_not_recorded = "shared memory is not recorded in this build";
    }
    auto with_parameters = with_tracing_parameters(text);
    if (auto* why = std::get_if<1>(&with_parameters)) return Result(std::in_place_index<1>, *why);
    build.source = kPrelude + std::get<0>(with_parameters);
    return Result(std::in_place_index<0>, std::move(build));
}

}  // namespace ts::gpu
