#include "lesson_parser.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "lesson_catalog.hpp"
#include "lesson_keys.hpp"
#include "model/format.hpp"

namespace ts::lessons {

using model::format_text;

std::string LessonError::text() const {
    return line > 0 ? format_text("{}:{}: {}", file.string(), line, message) : format_text("{}: {}", file.string(), message);
}

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// A text that runs over several lines: `text:`, `predict:`, `summary:`. Lines of one
// paragraph are joined with spaces, so the panel can wrap them to any width.
class Block {
public:
    void start(std::string* target, std::string_view first) {
        m_target = target;
        m_pending_break = false;
        if (!first.empty()) *m_target = std::string(first);
    }
    bool open() const { return m_target != nullptr; }
    void close() { m_target = nullptr; }
    void blank_line() {
        if (m_target && !m_target->empty()) m_pending_break = true;
    }
    void add(std::string_view line) {
        if (!m_target->empty()) *m_target += m_pending_break ? "\n\n" : " ";
        *m_target += line;
        m_pending_break = false;
    }

private:
    std::string* m_target = nullptr;
    bool m_pending_break = false;
};

class Parser {
public:
    Parser(const std::filesystem::path& file, const std::string& name) : m_file(file) {
        m_lesson.name = name;
        m_lesson.file = file;
    }

    std::optional<LessonError> line(int number, std::string_view raw) {
        const std::string_view content = trim(raw);
        if (content.empty()) {
            m_block.blank_line();
            return std::nullopt;
        }
        if (content.front() == '#') return std::nullopt;
        const bool indented = raw.front() == ' ' || raw.front() == '\t';
        if (indented) {
            if (!m_block.open())
                return error(number, "an indented line continues a text, but no text:, predict: or summary: is "
                                     "open here; start keys at the beginning of the line");
            m_block.add(content);
            return std::nullopt;
        }
        m_block.close();
        const auto colon = content.find(':');
        if (colon == std::string_view::npos)
            return error(number, format_text("expected `key: value`, got \"{}\"; keys: title, summary, {}", content,
                                        step_keys()));
        const std::string key(trim(content.substr(0, colon)));
        std::string_view value = trim(content.substr(colon + 1));
        // Settings may end in a comment ("tile: 8   # T"); prose keeps its # as written.
        const bool prose = key == "title" || key == "summary" || key == "step" || key == "text" || key == "predict";
        if (const auto hash = value.find(" #"); !prose && hash != std::string_view::npos)
            value = trim(value.substr(0, hash));
        return key_value(number, key, value);
    }

    std::variant<Lesson, LessonError> finish(int last_line) {
        if (auto why = finish_step()) return *why;
        if (m_lesson.title.empty())
            return *error(1, "the lesson has no title; write `title: ...` before the first step");
        if (m_lesson.steps.empty())
            return *error(last_line > 0 ? last_line : 1,
                          "the lesson has no steps; each begins with `step: TITLE` and needs a text:");
        return m_lesson;
    }

private:
    std::optional<LessonError> error(int line, std::string message) const {
        return LessonError{m_file, line, std::move(message)};
    }

    std::optional<LessonError> key_value(int number, const std::string& key, std::string_view value) {
        if (key == "step") {
            if (auto why = finish_step()) return why;
            if (value.empty()) return error(number, "step needs a title: `step: What this step shows`");
            Step step;
            step.line = number;
            step.title = std::string(value);
            m_lesson.steps.push_back(std::move(step));
            m_seen.clear();
            return std::nullopt;
        }
        if (m_lesson.steps.empty()) return lesson_key(number, key, value);

        Step& step = m_lesson.steps.back();
        if (const auto seen = m_seen.find(key); seen != m_seen.end())
            return error(number, format_text("{} is set twice in this step (first on line {}); a step names each key "
                                        "once",
                                        key, seen->second));
        m_seen[key] = number;

        if (key == "text") {
            m_block.start(&step.text, value);
            return std::nullopt;
        }
        if (key == "predict") {
            m_block.start(&step.predict, value);
            return std::nullopt;
        }
        if (value.empty()) return error(number, format_text("{} needs a value after the colon", key));
        if (key == "answer") {
            ParsedAnswer parsed;
            if (auto why = parse_answer(value, parsed)) return error(number, *why);
            step.answer = AnswerSpec{parsed.word, parsed.cell, number};
            return std::nullopt;
        }
        if (key == "expect-error") {
            if (value != "yes" && value != "no")
                return error(number, format_text("expect-error must be yes or no, got \"{}\"", value));
            step.expect_error = value == "yes";
            step.expect_error_line = number;
            return std::nullopt;
        }
        if (!is_state_key(key))
            return error(number, format_text("unknown key \"{}\"; a step may hold: {}", key, step_keys()));
        if (auto why = check_state_value(key, value)) return error(number, *why);
        step.settings.push_back(Setting{key, std::string(value), number});
        return std::nullopt;
    }

    std::optional<LessonError> lesson_key(int number, const std::string& key, std::string_view value) {
        if (key == "title" || key == "summary") {
            if (m_seen.count(key))
                return error(number, format_text("{} is set twice (first on line {})", key, m_seen[key]));
            m_seen[key] = number;
            if (key == "title") {
                if (value.empty()) return error(number, "title needs a value: `title: What this lesson teaches`");
                m_lesson.title = std::string(value);
            } else {
                m_block.start(&m_lesson.summary, value);
            }
            return std::nullopt;
        }
        if (key == "text" || key == "predict" || key == "answer" || key == "expect-error" || is_state_key(key))
            return error(number, format_text("{} belongs to a step; start one first with `step: TITLE`", key));
        return error(number,
                     format_text("unknown key \"{}\"; before the first step only title and summary are allowed", key));
    }

    std::optional<LessonError> finish_step() {
        m_block.close();
        if (m_lesson.steps.empty()) return std::nullopt;
        const Step& step = m_lesson.steps.back();
        const int step_number = static_cast<int>(m_lesson.steps.size());
        if (step.text.empty())
            return error(step.line, format_text("step {} (\"{}\") has no text; add `text:` and a few indented lines",
                                           step_number, step.title));
        if (!step.predict.empty() && !step.answer)
            return error(step.line, format_text("step {} asks to predict but has no `answer:`; answers: {}", step_number,
                                           answer_words()));
        if (step.answer && step.predict.empty())
            return error(step.answer->line, "answer needs a question: add `predict: ...` to this step");
        return std::nullopt;
    }

    std::filesystem::path m_file;
    Lesson m_lesson;
    Block m_block;
    std::map<std::string, int> m_seen;  // keys of the current step (or the header), and their lines
};

}  // namespace

std::variant<Lesson, LessonError> parse_lesson(std::string_view text, const std::filesystem::path& file,
                                               const std::string& name) {
    Parser parser(file, name);
    int number = 0;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view raw = text.substr(0, end);
        ++number;
        if (auto why = parser.line(number, raw)) return *why;
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return parser.finish(number);
}

std::variant<Lesson, LessonError> read_lesson(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return LessonError{file, 0, "cannot be read (does it exist?)"};
    std::stringstream text;
    text << in.rdbuf();
    return parse_lesson(text.str(), file, lesson_name(file));
}

}  // namespace ts::lessons
