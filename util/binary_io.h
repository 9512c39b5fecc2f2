// Little-endian binary records: a Writer that appends values and length-prefixed texts,
// a Reader whose every read past the end fails as "truncated" naming where the bytes came
// from, and the FNV-1a hash the formats end with (teacher shards, self-play chunks).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace knightgym {

static_assert(std::endian::native == std::endian::little, "binary records are little-endian");

inline uint64_t fnv1a(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return hash;
}

class BinaryWriter {
 public:
  template <class T>
  void put(const T& value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  template <class T>
  void put_array(const T* values, size_t count) {
    out_.append(reinterpret_cast<const char*>(values), count * sizeof(T));
  }
  void put_text(std::string_view text) {
    put(static_cast<uint32_t>(text.size()));
    out_.append(text);
  }
  void put_raw(std::string_view bytes) { out_.append(bytes); }
  // Ends the record with the hash of every byte before it.
  void put_hash() { put(fnv1a(out_)); }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

// Reads what BinaryWriter wrote from `bytes`; errors are std::invalid_argument
// "WHERE: why".
class BinaryReader {
 public:
  BinaryReader(std::string_view bytes, const std::string& where) : bytes_(bytes), where_(where) {}

  template <class T>
  T get() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }
  template <class T>
  void get_array(T* values, size_t count) {
    need(count * sizeof(T));
    std::memcpy(values, bytes_.data() + pos_, count * sizeof(T));
    pos_ += count * sizeof(T);
  }
  std::string get_text() {
    const uint32_t size = get<uint32_t>();
    need(size);
    std::string text(bytes_.substr(pos_, size));
    pos_ += size;
    return text;
  }
  // A count of items of at least `item_bytes` each, checked against what is left so
  // that a damaged count cannot ask for gigabytes.
  uint32_t get_count(size_t item_bytes) {
    const uint32_t count = get<uint32_t>();
    if (static_cast<uint64_t>(count) * item_bytes > bytes_.size() - pos_) fail("truncated");
    return count;
  }
  // Checks that the record opens with `magic` and ends with the hash of the bytes before
  // it, and reads past the magic; the hash is then what is left.
  void open(std::string_view magic, const std::string& what) {
    if (bytes_.substr(0, magic.size()) != magic)
      fail("not a " + what + " (no " + std::string(magic) + " at its start)");
    if (bytes_.size() < magic.size() + sizeof(uint64_t)) fail("truncated");
    const std::string_view body = bytes_.substr(0, bytes_.size() - sizeof(uint64_t));
    uint64_t hash;
    std::memcpy(&hash, bytes_.data() + body.size(), sizeof hash);
    hash_ok_ = fnv1a(body) == hash;
    bytes_ = body;
    pos_ = magic.size();
  }
  // After open(): whether the hash matched (formats check their version first, so that
  // an old file is named as such rather than as damaged).
  void check_hash() const {
    if (!hash_ok_) fail("damaged or truncated (its hash does not match its bytes)");
  }
  // After the last field: nothing but the hash may follow.
  void close(const std::string& after) const {
    if (pos_ != bytes_.size()) fail("bytes after its " + after);
  }
  size_t position() const { return pos_; }
  [[noreturn]] void fail(const std::string& why) const {
    throw std::invalid_argument(where_ + ": " + why);
  }

 private:
  void need(size_t size) {
    if (size > bytes_.size() - pos_)
      fail("truncated (" + std::to_string(bytes_.size()) + " bytes)");
  }

  std::string_view bytes_;
  const std::string& where_;
  size_t pos_ = 0;
  bool hash_ok_ = false;
};

}  // namespace knightgym
