#include "util/json_reader.h"

#include <charconv>
#include <stdexcept>
#include <unordered_set>

#include "util/json_writer.h"
#include "util/text.h"

namespace knightgym {
namespace {

const char* kind_name(JsonValue::Kind kind) {
  switch (kind) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBool:
      return "a boolean";
    case JsonValue::Kind::kNumber:
      return "a number";
    case JsonValue::Kind::kString:
      return "a string";
    case JsonValue::Kind::kArray:
      return "an array";
    case JsonValue::Kind::kObject:
      return "an object";
  }
  return "?";
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

void append_utf8(std::string& out, uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

}  // namespace

struct JsonValue::Place {
  std::shared_ptr<const Place> parent;
  std::string step;
};

// Recursive descent over the text, one value at a time.
class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  JsonValue document() {
    JsonValue value = parse_value(nullptr, "", 0);
    skip_space();
    if (at_ < text_.size()) fail("text after the document");
    return value;
  }

 private:
  static constexpr int kDeepest = 128;

  [[noreturn]] void fail(const std::string& problem) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at_ && i < text_.size(); ++i) {
      column = text_[i] == '\n' ? 1 : column + 1;
      line += text_[i] == '\n';
    }
    throw std::invalid_argument("JSON, line " + std::to_string(line) + ", column " +
                                std::to_string(column) + ": " + problem);
  }

  void skip_space() {
    while (at_ < text_.size() && is_space(text_[at_])) ++at_;
  }
  bool next_is(char c) {
    skip_space();
    return at_ < text_.size() && text_[at_] == c;
  }
  bool take(char c) {
    if (!next_is(c)) return false;
    ++at_;
    return true;
  }
  void expect(char c, const char* what) {
    if (!take(c)) fail(std::string("expected ") + what);
  }
  bool take_word(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  // A value that is `step` within its container `parent` (null: the document).
  JsonValue parse_value(std::shared_ptr<const JsonValue::Place> parent, std::string step,
                        int depth) {
    if (depth > kDeepest) fail("nested deeper than " + std::to_string(kDeepest));
    skip_space();
    if (at_ >= text_.size()) fail("the text ends where a value should be");
    JsonValue value;
    value.parent_ = std::move(parent);
    value.step_ = std::move(step);
    const char c = text_[at_];
    if (c == '{') {
      value.kind_ = JsonValue::Kind::kObject;
      parse_object(value, depth);
    } else if (c == '[') {
      value.kind_ = JsonValue::Kind::kArray;
      parse_array(value, depth);
    } else if (c == '"') {
      value.kind_ = JsonValue::Kind::kString;
      value.text_ = parse_string();
    } else if (c == '-' || is_digit(c)) {
      value.kind_ = JsonValue::Kind::kNumber;
      value.text_ = parse_number();
    } else if (take_word("true") || take_word("false")) {
      value.kind_ = JsonValue::Kind::kBool;
      value.flag_ = c == 't';
    } else if (!take_word("null")) {
      fail("unexpected '" + excerpt(text_.substr(at_), 12) + "'");
    }
    return value;
  }

  void parse_object(JsonValue& object, int depth) {
    ++at_;
    if (take('}')) return;
    const bool top = !object.parent_ && object.step_.empty();
    const auto here = place_of(object);
    std::unordered_set<std::string> keys;
    do {
      if (!next_is('"')) fail("expected a key in quotes");
      std::string key = parse_string();
      if (!keys.insert(key).second) fail("the key '" + excerpt(key) + "' appears twice");
      expect(':', "':' after a key");
      JsonValue member = parse_value(here, top ? key : std::string(".").append(key), depth + 1);
      object.members_.emplace_back(std::move(key), std::move(member));
    } while (take(','));
    expect('}', "',' or '}' in an object");
  }

  void parse_array(JsonValue& array, int depth) {
    ++at_;
    if (take(']')) return;
    const auto here = place_of(array);
    do {
      std::string step = "[";
      step.append(std::to_string(array.items_.size())).append("]");
      array.items_.push_back(parse_value(here, std::move(step), depth + 1));
    } while (take(','));
    expect(']', "',' or ']' in an array");
  }

  std::string parse_number() {
    const size_t start = at_;
    const auto digits = [&] {
      const size_t first = at_;
      while (at_ < text_.size() && is_digit(text_[at_])) ++at_;
      if (at_ == first) fail("a number without digits");
    };
    if (text_[at_] == '-') ++at_;
    if (at_ < text_.size() && text_[at_] == '0') {
      ++at_;
    } else {
      digits();
    }
    if (at_ < text_.size() && text_[at_] == '.') ++at_, digits();
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      digits();
    }
    return std::string(text_.substr(start, at_ - start));
  }

  uint32_t hex4() {
    if (at_ + 4 > text_.size()) fail("a \\u escape cut short");
    uint32_t code = 0;
    const auto [end, error] = std::from_chars(text_.data() + at_, text_.data() + at_ + 4, code, 16);
    if (error != std::errc() || end != text_.data() + at_ + 4) fail("a bad \\u escape");
    at_ += 4;
    return code;
  }

  std::string parse_string() {
    ++at_;
    std::string out;
    while (true) {
      if (at_ >= text_.size()) fail("a string without its closing quote");
      const char c = text_[at_];
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string");
      ++at_;
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= text_.size()) fail("a string without its closing quote");
      switch (const char e = text_[at_++]) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t code = hex4();
          if (code >= 0xD800 && code < 0xDC00) {  // a surrogate pair: one character
            if (!take_word("\\u")) fail("half of a surrogate pair");
            const uint32_t low = hex4();
            if (low < 0xDC00 || low >= 0xE000) fail("half of a surrogate pair");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          } else if (code >= 0xDC00 && code < 0xE000) {
            fail("half of a surrogate pair");
          }
          append_utf8(out, code);
          break;
        }
        default:
          fail(std::string("an unknown escape '\\") + e + "'");
      }
    }
  }

  static std::shared_ptr<const JsonValue::Place> place_of(const JsonValue& container) {
    return std::make_shared<const JsonValue::Place>(
        JsonValue::Place{container.parent_, container.step_});
  }

  std::string_view text_;
  size_t at_ = 0;
};

std::string JsonValue::where() const { return place(false); }

std::string JsonValue::place(bool short_steps) const {
  std::vector<const std::string*> steps{&step_};
  for (const Place* container = parent_.get(); container; container = container->parent.get())
    steps.push_back(&container->step);
  std::string out;
  for (auto step = steps.rbegin(); step != steps.rend(); ++step)
    out += short_steps ? excerpt(**step) : **step;
  return out;
}

void JsonValue::fail(const std::string& problem) const {
  // Each key quoted short, so that a message stays short whatever the keys' length.
  const std::string where = place(true);
  throw std::invalid_argument((where.empty() ? "the document" : where) + ": " + problem);
}

namespace {

void expect_kind(const JsonValue& value, JsonValue::Kind kind) {
  if (value.kind() != kind)
    value.fail(std::string("expected ") + kind_name(kind) + ", found " + kind_name(value.kind()));
}

// Whether the whole of a number's text reads as a T.
template <typename T>
bool reads_as(const std::string& text, T& number) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

bool JsonValue::as_bool() const {
  expect_kind(*this, Kind::kBool);
  return flag_;
}

int64_t JsonValue::as_int(int64_t low, int64_t high) const {
  expect_kind(*this, Kind::kNumber);
  int64_t number = 0;
  if (!reads_as(text_, number) || number < low || number > high)
    fail(excerpt(text_) + " is not an integer in [" + std::to_string(low) + ", " +
         std::to_string(high) + "]");
  return number;
}

double JsonValue::as_double() const {
  expect_kind(*this, Kind::kNumber);
  double number = 0;
  if (!reads_as(text_, number)) fail(excerpt(text_) + " is out of a double's range");
  return number;
}

const std::string& JsonValue::number_text() const {
  expect_kind(*this, Kind::kNumber);
  return text_;
}

const std::string& JsonValue::as_string() const {
  expect_kind(*this, Kind::kString);
  return text_;
}

const std::vector<JsonValue>& JsonValue::as_array() const {
  expect_kind(*this, Kind::kArray);
  return items_;
}

const std::vector<JsonValue::Member>& JsonValue::as_object() const {
  expect_kind(*this, Kind::kObject);
  return members_;
}

const JsonValue* JsonValue::find(std::string_view key) const {
  for (const Member& member : members_)
    if (member.first == key) return &member.second;
  return nullptr;
}

const JsonValue& JsonValue::at(std::string_view key) const {
  expect_kind(*this, Kind::kObject);
  const JsonValue* member = find(key);
  if (!member) fail("has no '" + std::string(key) + "'");
  return *member;
}

bool JsonValue::operator==(const JsonValue& other) const {
  return kind_ == other.kind_ && flag_ == other.flag_ && text_ == other.text_ &&
         items_ == other.items_ && members_ == other.members_;
}

namespace {

void write_value(JsonWriter& json, const JsonValue& value) {
  switch (value.kind()) {
    case JsonValue::Kind::kNull:
      json.null();
      break;
    case JsonValue::Kind::kBool:
      json.value(value.as_bool());
      break;
    case JsonValue::Kind::kNumber:
      json.raw(value.number_text());
      break;
    case JsonValue::Kind::kString:
      json.value(value.as_string());
      break;
    case JsonValue::Kind::kArray:
      json.begin_array();
      for (const JsonValue& item : value.as_array()) write_value(json, item);
      json.end_array();
      break;
    case JsonValue::Kind::kObject:
      json.begin_object();
      for (const auto& [key, member] : value.as_object()) write_value(json.key(key), member);
      json.end_object();
      break;
  }
}

}  // namespace

std::string JsonValue::text() const {
  JsonWriter json;
  write_value(json, *this);
  return json.text();
}

JsonValue parse_json(std::string_view text) { return JsonParser(text).document(); }

std::string differing_members(const JsonValue& saved, const JsonValue& expected,
                              std::string_view ignored) {
  if (saved.kind() != JsonValue::Kind::kObject || expected.kind() != JsonValue::Kind::kObject)
    return saved == expected ? "" : "its options";
  std::string names;
  const auto add = [&](const std::string& name) { names += (names.empty() ? "" : ", ") + name; };
  for (const auto& [key, value] : expected.as_object()) {
    const JsonValue* other = saved.find(key);
    if (!other || !(*other == value)) add(key);
  }
  for (const auto& [key, value] : saved.as_object())
    if (key != ignored && !expected.find(key)) add(key);
  return names;
}

bool looks_like_json(std::string_view text) {
  const std::string_view content = trim(text);
  return !content.empty() && content.front() == '{';
}

}  // namespace knightgym
