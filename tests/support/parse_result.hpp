// parse_result.hpp — what a test reads from the std::variant<T, std::string> that TileScope's
// parsers and resolvers return: the value, where one is expected, or the message, where one is.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <variant>

namespace ts::testing_support {

// The value. Where the message came instead, the test fails with it (after `context`, which
// may name the input) and gets T{}.
template <typename T>
T value_or_failure(std::variant<T, std::string> result, const std::string& context = {}) {
    if (const auto* why = std::get_if<std::string>(&result)) {
        ADD_FAILURE() << context << *why;
        return T{};
    }
    return std::get<T>(std::move(result));
}

// The message, or `none` where the value came.
template <typename T>
std::string message_of(const std::variant<T, std::string>& result, const std::string& none = "(no error)") {
    const auto* why = std::get_if<std::string>(&result);
    return why ? *why : none;
}

}  // namespace ts::testing_support
