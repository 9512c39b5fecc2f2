// The JSON reader: values and their places, exact numbers, and errors that name where.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "util/json_reader.h"
#include "util/json_writer.h"

using namespace knightgym;

TEST_CASE("the JSON reader reads every kind of value, in order, with its place", "[json]") {
  const JsonValue doc = parse_json(
      " {\"name\": \"a \\\"q\\\" \\\\ \\u00e9\\ud83d\\ude00\\n\", \"list\": [1, -2.5e3, 0],\n"
      "  \"nested\": {\"flag\": true, \"off\": false, \"none\": null}, \"empty\": [], \"o\": {}} ");
  REQUIRE(doc.as_object().size() == 5);
  CHECK(doc.as_object()[0].first == "name");
  CHECK(doc.at("name").as_string() == "a \"q\" \\ \xc3\xa9\xf0\x9f\x98\x80\n");
  const auto& list = doc.at("list").as_array();
  REQUIRE(list.size() == 3);
  CHECK(list[0].as_int() == 1);
  CHECK(list[1].as_double() == -2500.0);
  CHECK(list[1].where() == "list[1]");
  CHECK(doc.at("nested").at("flag").as_bool());
  CHECK_FALSE(doc.at("nested").at("off").as_bool());
  CHECK(doc.at("nested").at("none").is_null());
  CHECK(doc.at("nested").at("none").where() == "nested.none");
  CHECK(doc.at("empty").as_array().empty());
  CHECK(doc.at("o").as_object().empty());
  CHECK(doc.find("missing") == nullptr);
}

TEST_CASE("numbers written by the writer read back exactly", "[json]") {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> uniform(-1e6, 1e6);
  for (int i = 0; i < 1000; ++i) {
    const double x = i % 2 ? uniform(random) : std::ldexp(uniform(random), -900 + i);
    JsonWriter json;
    json.begin_array().exact(x).end_array();
    const double back = parse_json(json.text()).as_array()[0].as_double();
    CHECK(std::memcmp(&back, &x, sizeof x) == 0);
  }
  JsonWriter json;
  json.begin_array().value(INT64_MAX).value(INT64_MIN).end_array();
  const JsonValue doc = parse_json(json.text());
  CHECK(doc.as_array()[0].as_int() == INT64_MAX);
  CHECK(doc.as_array()[1].as_int() == INT64_MIN);
  CHECK(doc.as_array()[1].number_text() == std::to_string(INT64_MIN));
}

TEST_CASE("a value of another kind or range is refused, naming its place", "[json]") {
  const JsonValue doc = parse_json("{\"a\": {\"b\": [1.5, \"x\", 7]}}");
  const auto& b = doc.at("a").at("b").as_array();
  CHECK_THROWS_WITH(b[0].as_int(), "a.b[0]: 1.5 is not an integer in [" +
                                       std::to_string(INT64_MIN) + ", " +
                                       std::to_string(INT64_MAX) + "]");
  CHECK_THROWS_WITH(b[1].as_double(), "a.b[1]: expected a number, found a string");
  CHECK_THROWS_WITH(b[2].as_int(0, 5), "a.b[2]: 7 is not an integer in [0, 5]");
  CHECK_THROWS_WITH(doc.at("a").at("c"), "a: has no 'c'");
  CHECK_THROWS_WITH(doc.at("a").as_array(), "a: expected an array, found an object");
}

TEST_CASE("malformed JSON is refused with its line and column", "[json]") {
  const auto error_of = [](std::string_view text) {
    try {
      parse_json(text);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("{\"a\": 1,\n \"a\": 2}") == "JSON, line 2, column 5: the key 'a' appears twice");
  CHECK(error_of("{\"a\": 1} x") == "JSON, line 1, column 10: text after the document");
  CHECK(error_of("[1, 2") == "JSON, line 1, column 6: expected ',' or ']' in an array");
  CHECK(error_of("{\"a\" 1}") == "JSON, line 1, column 6: expected ':' after a key");
  CHECK(error_of("{a: 1}") == "JSON, line 1, column 2: expected a key in quotes");
  CHECK(error_of("[01]") == "JSON, line 1, column 3: expected ',' or ']' in an array");
  CHECK(error_of("[1.]") == "JSON, line 1, column 4: a number without digits");
  CHECK(error_of("[\"a\tb\"]") == "JSON, line 1, column 4: a control character inside a string");
  CHECK(error_of("[\"\\ud800\"]") == "JSON, line 1, column 9: half of a surrogate pair");
  CHECK(error_of("[\"\\q\"]") == "JSON, line 1, column 5: an unknown escape '\\q'");
  CHECK(error_of("[tru]") == "JSON, line 1, column 2: unexpected 'tru]'");
  CHECK(error_of("") == "JSON, line 1, column 1: the text ends where a value should be");
  CHECK(error_of(std::string(200, '[')).find("nested deeper than 128") != std::string::npos);
  CHECK(error_of(std::string(100, '[') + std::string(100, ']')) == "no error");
}

TEST_CASE("equal JSON compares equal wherever it stands", "[json]") {
  const JsonValue doc = parse_json("{\"run\": {\"k\": [1, \"v\"]}}");
  CHECK(doc.at("run") == parse_json("{ \"k\" : [1,\"v\"] }"));
  CHECK_FALSE(doc.at("run") == parse_json("{\"k\": [1.0, \"v\"]}"));
  CHECK_FALSE(doc.at("run") == parse_json("{\"k\": [1, \"w\"]}"));
  CHECK(looks_like_json("  \n{\"a\": 1}"));
  CHECK_FALSE(looks_like_json("threads=1\n"));
}

// Under a sanitizer the address space is its shadow's and the work is slower: there the
// child gets no memory limit and three times the processor time.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// Runs `work` in a child process held to `extra_bytes` of address space beyond what it
// starts with and `cpu_seconds` of processor time; whether it ended normally.
bool within_limits(const std::function<void()>& work, size_t extra_bytes, int cpu_seconds) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (!kSanitized) {
      size_t mapped_kb = 0;
      std::ifstream status("/proc/self/status");
      for (std::string line; std::getline(status, line);)
        if (line.rfind("VmSize:", 0) == 0) mapped_kb = std::stoull(line.substr(7));
      const rlimit memory{mapped_kb * 1024 + extra_bytes, mapped_kb * 1024 + extra_bytes};
      setrlimit(RLIMIT_AS, &memory);
    }
    const auto seconds = static_cast<rlim_t>(kSanitized ? 3 * cpu_seconds : cpu_seconds);
    const rlimit cpu{seconds, seconds};
    setrlimit(RLIMIT_CPU, &cpu);
    try {
      work();
    } catch (...) {
      _exit(1);
    }
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST_CASE("the JSON reader is linear in time and memory", "[json]") {
  // 400,000 keys: comparing each with every earlier one would take minutes.
  std::string many = "{";
  for (int i = 0; i < 400000; ++i) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
  many += "}";
  CHECK(within_limits(
      [&] {
        if (parse_json(many).as_object().size() != 400000) throw std::logic_error("keys lost");
      },
      size_t{1} << 30, 30));
  CHECK_THROWS_WITH(parse_json(many.substr(0, many.size() - 1) + ",\"k7\":2}"),
                    Catch::Matchers::Contains("the key 'k7' appears twice"));
  // A 64 KB key over 40,000 items: a copy of the key in each item's place would be 2.6 GB.
  const std::string key(65536, 'k');
  std::string wide = "{\"" + key + "\":[0";
  for (int i = 1; i < 40000; ++i) wide += ",0";
  wide += "]}";
  CHECK(within_limits(
      [&] {
        const JsonValue doc = parse_json(wide);
        if (doc.at(key).as_array()[39999].where() != key + "[39999]")
          throw std::logic_error("another place");
      },
      size_t{256} << 20, 30));
}

TEST_CASE("a refusal quotes long keys and numbers short", "[json]") {
  const std::string key(65536, 'k');
  const JsonValue json = parse_json("{\"" + key + "\": [0, " + std::string(5000, '9') + "]}");
  const auto message_of = [](const auto& read) -> std::string {
    try {
      read();
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "";
  };
  const std::string wrong_kind = message_of([&] { json.at(key).as_array()[0].as_string(); });
  CHECK_THAT(wrong_kind, Catch::Contains("...[0]: expected a string, found a number"));
  CHECK(wrong_kind.size() < 200);
  const std::string too_big = message_of([&] { json.at(key).as_array()[1].as_int(); });
  CHECK_THAT(too_big, Catch::Contains("... is not an integer"));
  CHECK(too_big.size() < 300);
  CHECK(json.at(key).as_array()[0].where() == key + "[0]");
}
