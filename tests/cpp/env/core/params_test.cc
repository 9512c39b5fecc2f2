#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "env/core/params.h"
#include "env/registry/registry.h"
#include "util/text.h"

namespace knightgym {
namespace {

using Catch::Contains;
using Params = std::vector<std::pair<std::string, std::string>>;

TEST_CASE("specs parse into a name and ordered parameters", "[params]") {
  CHECK(parse_spec("knight_fight").name == "knight_fight");
  CHECK(parse_spec("knight_fight()").params.empty());
  const Spec spec = parse_spec(" knight_fight( double_erase = forced ,max_turns=9) ");
  CHECK(spec.name == "knight_fight");
  CHECK(spec.params == Params{{"double_erase", "forced"}, {"max_turns", "9"}});
  CHECK(parse_spec("g(squares=[d4,e5],n=1)").params == Params{{"squares", "d4,e5"}, {"n", "1"}});
  CHECK(format_spec(parse_spec("g(squares=[d4,e5],n=1)")) == "g(squares=[d4,e5],n=1)");
  // Values that would not read back bare keep their brackets (found by the spec fuzzer:
  // a FEN with a space at its end lost it, and its canonical spec named another).
  for (const char* text : {"g(a=[ x ],b=[[y]],c=[d4]e5)", "g(fen=[4k3/8/8/8/8/8/8/4K3 w - - 0 ])"})
    CHECK(format_spec(parse_spec(format_spec(parse_spec(text)))) == format_spec(parse_spec(text)));
  CHECK(parse_spec(format_spec(parse_spec("g(a=[ x ])"))).params == Params{{"a", " x "}});
  CHECK(format_spec(parse_spec("g(a=[[y]])")) == "g(a=[[y]])");
  const auto knightmate = load_game("knightmate(fen=[4k3/8/8/3pP3/8/8/8/4K3 w - d6 60 ])");
  CHECK(load_game(knightmate->spec())->spec() == knightmate->spec());
}

TEST_CASE("malformed specs are rejected with the reason", "[params]") {
  CHECK_THROWS_WITH(parse_spec(""), Contains("no game name"));
  CHECK_THROWS_WITH(parse_spec("g(a=1"), Contains("missing ')'"));
  CHECK_THROWS_WITH(parse_spec("g(a)"), Contains("'a' has no '='"));
  CHECK_THROWS_WITH(parse_spec("g(=1)"), Contains("no name"));
  CHECK_THROWS_WITH(parse_spec("g(a=1,a=2)"), Contains("'a' given twice"));
  CHECK_THROWS_WITH(parse_spec("g(a=1,,b=2)"), Contains("empty parameter"));
  CHECK_THROWS_WITH(parse_spec("g(a=[1,2)"), Contains("unbalanced"));
}

// The message of the std::invalid_argument that parse_spec throws for `text`.
std::string refusal(const std::string& text) {
  try {
    parse_spec(text);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  FAIL("accepted: " << text.substr(0, 80));
  return "";
}

// "g(p0=0,p1=1,...)" with n parameters.
std::string many_params(int n) {
  std::string text = "g(";
  for (int i = 0; i < n; ++i)
    text += (i ? ",p" : "p") + std::to_string(i) + "=" + std::to_string(i);
  return text + ")";
}

TEST_CASE("specs are bounded: long or many-parameter inputs are refused at once, briefly",
          "[params]") {
  // 100,000 parameters (about 1.2 MB): refused by its length, with a message that quotes
  // none of it. Once this took a minute to refuse and echoed the megabyte.
  const std::string huge = many_params(100000);
  const std::string message = refusal(huge);
  CHECK(message == "a spec is at most 65536 characters, got " + std::to_string(huge.size()));
  // Within the length, too many parameters: the message quotes only the start.
  const std::string too_many = refusal(many_params(kMaxSpecParams + 1));
  CHECK_THAT(too_many, Contains("at most 256 parameters") && Contains("bad spec 'g(p0=0,p1=1,"));
  CHECK(too_many.size() < 200);

  // Exactly at the bounds: accepted; one past: refused.
  CHECK(parse_spec(many_params(kMaxSpecParams)).params.size() == kMaxSpecParams);
  const auto of_length = [](size_t length) {  // "g(v=xxx...)"
    return "g(v=" + std::string(length - 5, 'x') + ")";
  };
  CHECK(parse_spec(of_length(kMaxSpecLength)).params.front().second.size() == kMaxSpecLength - 5);
  CHECK(refusal(of_length(kMaxSpecLength + 1)) == "a spec is at most 65536 characters, got 65537");

  // A duplicate is still found among the most parameters a spec may have, first and last.
  std::string twice = many_params(kMaxSpecParams - 1);
  twice.insert(twice.size() - 1, ",p0=x");
  CHECK_THAT(refusal(twice), Contains("parameter 'p0' given twice"));

  // Every refusal of a long input stays short: the quoted parts are cut.
  const std::string long_value(60000, 'v');
  for (const std::string& text :
       {"g(" + long_value + ")", "g(a=1," + long_value + "=1," + long_value + "=2)",
        "g(a=[" + long_value + ")", std::string(60000, ' ') + "(a=1", "g(a=1,,b=" + long_value}) {
    const std::string why = refusal(text);
    INFO(why.substr(0, 300));
    CHECK(why.size() < 200);
  }
  // A cut never splits a UTF-8 character.
  CHECK(excerpt(std::string(59, 'a') + "\xc3\xa9" + std::string(10, 'b')) ==
        std::string(59, 'a') + "...");
}

TEST_CASE("the reader returns values or defaults and records every declaration", "[params]") {
  ParamReader reader(parse_spec("g(flag=false,count=7)"));
  CHECK_FALSE(reader.get_bool("flag", true, "a flag"));
  CHECK(reader.get_int("count", 3, 0, 10, "a count") == 7);
  CHECK(reader.get_choice("mode", "b", {"a", "b"}, "a mode") == "b");
  CHECK(reader.get_string("name", "x", "a name") == "x");
  reader.finish();
  REQUIRE(reader.infos().size() == 4);
  CHECK(reader.infos()[2].choices == std::vector<std::string>{"a", "b"});
  CHECK(reader.canonical_spec() == "g(flag=false,count=7,mode=b,name=x)");
}

TEST_CASE("bad values and unknown keys name the problem and what is allowed", "[params]") {
  SECTION("bool") {
    ParamReader reader(parse_spec("g(flag=maybe)"));
    CHECK_THROWS_WITH(reader.get_bool("flag", true, ""),
                      Contains("'flag' = 'maybe'") && Contains("true or false"));
  }
  SECTION("int out of range") {
    ParamReader reader(parse_spec("g(count=11)"));
    CHECK_THROWS_WITH(reader.get_int("count", 3, 0, 10, ""), Contains("[0, 10]"));
  }
  SECTION("int that is not a number") {
    ParamReader reader(parse_spec("g(count=7x)"));
    CHECK_THROWS_WITH(reader.get_int("count", 3, 0, 10, ""), Contains("expected an integer"));
  }
  SECTION("choice") {
    ParamReader reader(parse_spec("g(mode=c)"));
    CHECK_THROWS_WITH(reader.get_choice("mode", "a", {"a", "b"}, ""), Contains("one of: a, b"));
  }
  SECTION("unknown key") {
    ParamReader reader(parse_spec("g(mode=a,colour=red)"));
    reader.get_choice("mode", "a", {"a", "b"}, "");
    CHECK_THROWS_WITH(reader.finish(),
                      Contains("unknown parameter 'colour'") && Contains("allowed: mode"));
  }
  SECTION("long values and keys are quoted cut short") {
    const std::string value(30000, '7');
    ParamReader reader(parse_spec("g(count=" + value + ",n" + value + "=1)"));
    try {
      reader.get_int("count", 3, 0, 10, "");
      FAIL("accepted");
    } catch (const std::invalid_argument& error) {
      CHECK_THAT(error.what(), Contains("'count' = '" + std::string(60, '7') + "...'"));
      CHECK(std::string(error.what()).size() < 200);
    }
    try {
      reader.finish();
      FAIL("accepted");
    } catch (const std::invalid_argument& error) {
      CHECK_THAT(error.what(), Contains("unknown parameter 'n777"));
      CHECK(std::string(error.what()).size() < 200);
    }
  }
}

TEST_CASE("the registry loads games by spec and rejects unknown ones", "[params]") {
  const auto game = load_game("knight_fight(max_turns=50, double_erase=off)");
  CHECK(game->name() == "knight_fight");
  CHECK(game->spec() ==
        "knight_fight(double_erase=off,mirror_on_moves=true,max_turns=50,layout=random)");
  CHECK(load_game(game->spec())->spec() == game->spec());
  CHECK(load_game("knight_fight(max_turns=050,mirror_on_moves=1)")->spec() ==
        load_game("knight_fight(max_turns=50,mirror_on_moves=true)")->spec());
  CHECK_THROWS_WITH(load_game("chess"),
                    Contains("unknown game 'chess'") && Contains("known games: knight_fight"));
  CHECK_THROWS_WITH(load_game("knight_fight(speed=3)"),
                    Contains("unknown parameter 'speed'") && Contains("double_erase"));
  CHECK_THROWS_WITH(load_game("knight_fight(double_erase=sometimes)"),
                    Contains("optional, forced, off"));
  // A long name is quoted cut short.
  try {
    load_game(std::string(60000, 'x'));
    FAIL("accepted");
  } catch (const std::invalid_argument& error) {
    CHECK_THAT(error.what(), Contains("unknown game '" + std::string(60, 'x') + "...'"));
    CHECK(std::string(error.what()).size() < 300);
  }
}

}  // namespace
}  // namespace knightgym
