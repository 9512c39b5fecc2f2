// Text helpers shared by every parser: one rule for splitting, so that every format
// reads empty fields the same way.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace knightgym {

// Every part between separators, empty ones included: "a,,b" -> {"a", "", "b"}, "" -> {""}.
// Parsers decide what an empty part means (usually an error that names it).
std::vector<std::string_view> split(std::string_view text, char separator);

// The words of `text`: runs of characters other than spaces and tabs ("" -> {}).
std::vector<std::string_view> split_words(std::string_view text);

// `text` without leading and trailing spaces, tabs and line ends.
std::string_view trim(std::string_view text);

// The items joined with `separator` between them.
std::string join(const std::vector<std::string>& items, std::string_view separator);

// What an error message quotes of an input: at most the first `max_length` bytes of it
// (cut back to a whole UTF-8 character) and "..." if anything was left out, so that a
// message stays short whatever the input's size.
inline constexpr size_t kQuotedLength = 60;
std::string excerpt(std::string_view text, size_t max_length = kQuotedLength);

}  // namespace knightgym
