// The JSON writer: commas and nesting, string escapes, numbers, null for non-finite.
#include <catch2/catch.hpp>

#include <limits>

#include "util/json_writer.h"

using namespace knightgym;

TEST_CASE("the JSON writer places commas and escapes strings", "[json]") {
  JsonWriter json;
  json.begin_object().key("name").value("a \"quoted\" \\ path\n");
  json.key("list").array(std::vector<int64_t>{1, 2, 3});
  json.key("empty").begin_array().end_array();
  json.key("nested").begin_object().key("flag").value(true).key("none").null().end_object();
  json.key("numbers").begin_array().value(0.5).value(-3).value(1e-12);
  json.value(std::numeric_limits<double>::infinity()).value(std::nan("")).end_array();
  json.end_object();
  CHECK(json.text() ==
        "{\"name\": \"a \\\"quoted\\\" \\\\ path\\u000a\", \"list\": [1, 2, 3], \"empty\": [], "
        "\"nested\": {\"flag\": true, \"none\": null}, "
        "\"numbers\": [0.5, -3, 1e-12, null, null]}");
}
