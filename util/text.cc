#include "util/text.h"

#include <algorithm>

namespace knightgym {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (size_t pos = 0;;) {
    const size_t end = text.find(separator, pos);
    parts.push_back(text.substr(pos, end == std::string_view::npos ? end : end - pos));
    if (end == std::string_view::npos) return parts;
    pos = end + 1;
  }
}

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  for (size_t pos = text.find_first_not_of(" \t"); pos != std::string_view::npos;) {
    const size_t end = std::min(text.find_first_of(" \t", pos), text.size());
    words.push_back(text.substr(pos, end - pos));
    pos = text.find_first_not_of(" \t", end);
  }
  return words;
}

std::string_view trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) {
    if (&item != items.data()) out += separator;
    out += item;
  }
  return out;
}

std::string excerpt(std::string_view text, size_t max_length) {
  if (text.size() <= max_length) return std::string(text);
  size_t cut = max_length;
  // A byte 10xxxxxx continues a character: cut before the character it belongs to.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

}  // namespace knightgym
