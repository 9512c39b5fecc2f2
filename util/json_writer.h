// A small streaming JSON writer: objects, arrays, strings, numbers and booleans, with
// the commas placed for the caller. Non-finite numbers are written as null. What it
// writes of the project's own files is read back by json_reader.h.
//
// Why not nlohmann-json (Debian's nlohmann-json3-dev): the project writes JSON straight
// into one string without building a document first, its report number format
// ("%.10g") is part of what balance.json and the reports rendered from it promise, and
// the files it reads back are small and its own; a 25,000-line header in every file that
// writes a report would buy none of that, so these few hundred lines stay.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace knightgym {

class JsonWriter {
 public:
  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  // The key of the next value in an object.
  JsonWriter& key(std::string_view name) {
    separate();
    append_string(name);
    text_ += ": ";
    after_key_ = true;
    return *this;
  }

  JsonWriter& value(std::string_view text) {
    separate();
    append_string(text);
    return *this;
  }
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(bool flag) {
    separate();
    text_ += flag ? "true" : "false";
    return *this;
  }
  JsonWriter& value(int64_t number) {
    separate();
    text_ += std::to_string(number);
    return *this;
  }
  JsonWriter& value(uint64_t number) {  // seeds use all 64 bits
    separate();
    text_ += std::to_string(number);
    return *this;
  }
  JsonWriter& value(int number) { return value(static_cast<int64_t>(number)); }
  JsonWriter& value(double number) {
    separate();
    if (!std::isfinite(number)) {
      text_ += "null";
    } else {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.10g", number);
      text_ += buffer;
    }
    return *this;
  }
  // A double as the shortest text that reads back to the same bits (what a file that is
  // read back needs), where value() rounds to 10 digits for reports.
  JsonWriter& exact(double number) {
    separate();
    if (!std::isfinite(number)) {
      text_ += "null";
    } else {
      char buffer[32];
      text_.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, number).ptr);
    }
    return *this;
  }
  // A value written as JSON elsewhere (by a JsonWriter), placed as it is.
  JsonWriter& raw(std::string_view json) {
    separate();
    text_ += json;
    return *this;
  }
  JsonWriter& null() {
    separate();
    text_ += "null";
    return *this;
  }

  template <typename T>
  JsonWriter& array(const std::vector<T>& values) {
    begin_array();
    for (const T& v : values) value(v);
    return end_array();
  }

  const std::string& text() const { return text_; }

 private:
  JsonWriter& open(char bracket) {
    separate();
    text_ += bracket;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char bracket) {
    first_.pop_back();
    text_ += bracket;
    return *this;
  }
  // A comma before every element but the first; nothing between a key and its value.
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) text_ += ", ";
    first_.back() = false;
  }
  void append_string(std::string_view text) {
    text_ += '"';
    for (const char c : text) {
      if (c == '"' || c == '\\') {
        text_ += '\\';
        text_ += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
        text_ += escaped;
      } else {
        text_ += c;
      }
    }
    text_ += '"';
  }

  std::string text_;
  std::vector<uint8_t> first_;  // per open bracket: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace knightgym
