// Specification of the JSON input helpers: quantities with units turned into
// base units, field getters whose errors name file, object and field, and
// syntax errors located by line.
#include "sim/io/json_input.hpp"

#include <cmath>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "sim/core/input_error.hpp"

namespace gcsim {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---- parse_quantity ---------------------------------------------------------------

struct QuantityCase {
  const char* text;
  Quantity kind;
  double expected;  // base units: bytes, bytes/s, seconds, FLOP/s
};

std::ostream& operator<<(std::ostream& out, const QuantityCase& c) { return out << '"' << c.text << '"'; }

const QuantityCase kWellFormed[] = {
    // bandwidth: bytes per second, or bits per second divided by 8
    {"25GB/s", Quantity::kBandwidth, 25e9},
    {"100Gbps", Quantity::kBandwidth, 12.5e9},
    {"400Mbps", Quantity::kBandwidth, 50e6},
    {"2TB/s", Quantity::kBandwidth, 2e12},
    {"16GBps", Quantity::kBandwidth, 16e9},
    {"8bps", Quantity::kBandwidth, 1.0},
    {"25e9", Quantity::kBandwidth, 25e9},
    // time
    {"2us", Quantity::kTime, 2e-6},
    {"1.5us", Quantity::kTime, 1.5e-6},
    {"300ns", Quantity::kTime, 300e-9},
    {"10ms", Quantity::kTime, 10e-3},
    {"1.5h", Quantity::kTime, 5400.0},
    {"2min", Quantity::kTime, 120.0},
    {"1d", Quantity::kTime, 86400.0},
    {"45s", Quantity::kTime, 45.0},
    {"0.25", Quantity::kTime, 0.25},
    // bytes: decimal and binary prefixes
    {"80GiB", Quantity::kBytes, 80.0 * 1024 * 1024 * 1024},
    {"16GB", Quantity::kBytes, 16e9},
    {"4KiB", Quantity::kBytes, 4096.0},
    {"3MiB", Quantity::kBytes, 3.0 * 1024 * 1024},
    {"1TiB", Quantity::kBytes, 1024.0 * 1024 * 1024 * 1024},
    {"512B", Quantity::kBytes, 512.0},
    {"1e8", Quantity::kBytes, 1e8},
    // FLOP/s
    {"125TFLOPS", Quantity::kFlops, 125e12},
    {"1.2PFLOPS", Quantity::kFlops, 1.2e15},
    {"15.7Tf", Quantity::kFlops, 15.7e12},
    {"1.25e14", Quantity::kFlops, 1.25e14},
    // plain numbers, spaces and digit separators
    {"42", Quantity::kPlain, 42.0},
    {"-3.5", Quantity::kPlain, -3.5},
    {"25 GB/s", Quantity::kBandwidth, 25e9},
    {"1_000_000", Quantity::kPlain, 1e6},
};

class WellFormedQuantity : public ::testing::TestWithParam<QuantityCase> {};

TEST_P(WellFormedQuantity, ParsesToBaseUnits) {
  const std::optional<double> value = parse_quantity(GetParam().text, GetParam().kind);
  ASSERT_TRUE(value.has_value());
  EXPECT_NEAR(*value, GetParam().expected, std::abs(GetParam().expected) * 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Table, WellFormedQuantity, ::testing::ValuesIn(kWellFormed));

const QuantityCase kMalformed[] = {
    {"", Quantity::kBandwidth, 0},       {"   ", Quantity::kTime, 0}, {"GB/s", Quantity::kBandwidth, 0},  // no number
    {"fast", Quantity::kBandwidth, 0},    // no number, no unit
    {"25XB/s", Quantity::kBandwidth, 0},  // unknown prefix
    {"25GB/s", Quantity::kBytes, 0},      // a bandwidth where bytes are expected
    {"80GiB", Quantity::kBandwidth, 0},   // bytes where a bandwidth is expected
    {"2us", Quantity::kBytes, 0},         // a time where bytes are expected
    {"125TFLOPS", Quantity::kTime, 0},    // FLOP/s where a time is expected
    {"10 parsecs", Quantity::kTime, 0},   // unknown unit
    {"1.2.3GB", Quantity::kBytes, 0},     // trailing garbage in the number
    {"12GB extra", Quantity::kBytes, 0},  // trailing garbage after the unit
    {"5GB", Quantity::kPlain, 0},         // a plain number takes no unit
    {"inf", Quantity::kPlain, 0},         // not finite
    {"nan", Quantity::kPlain, 0},         // not finite
    {"1e999", Quantity::kPlain, 0},       // overflows
};

class MalformedQuantity : public ::testing::TestWithParam<QuantityCase> {};

TEST_P(MalformedQuantity, IsRejected) { EXPECT_EQ(parse_quantity(GetParam().text, GetParam().kind), std::nullopt); }

INSTANTIATE_TEST_SUITE_P(Table, MalformedQuantity, ::testing::ValuesIn(kMalformed));

TEST(QuantityHint, GivesAnExampleForEachFamily) {
  EXPECT_TRUE(contains(quantity_hint(Quantity::kBandwidth), "GB/s"));
  EXPECT_TRUE(contains(quantity_hint(Quantity::kTime), "us"));
  EXPECT_TRUE(contains(quantity_hint(Quantity::kBytes), "GB"));
  EXPECT_TRUE(contains(quantity_hint(Quantity::kFlops), "TFLOPS"));
}

// ---- JsonObject getters -------------------------------------------------------------

const JsonLocation kWhere{"cluster.json", "node_groups[1]"};

// Runs `read` and returns the InputError it throws; fails the test if none.
template <typename Read>
InputError error_of(Read read) {
  try {
    read();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError thrown";
  return InputError("", "", "", "");
}

TEST(JsonObject, ReadsFieldsOfEachKind) {
  const auto doc = nlohmann::json::parse(
      R"({"name": "dgx", "count": 4, "nic": "100Gbps", "latency": 2e-6, "shared": true, "inner": {"x": 1},
          "list": [1, 2]})");
  const JsonObject object(doc, kWhere);
  EXPECT_EQ(object.required_string("name"), "dgx");
  EXPECT_EQ(object.required_uint("count", 1), 4u);
  EXPECT_DOUBLE_EQ(object.required_quantity("nic", Quantity::kBandwidth), 12.5e9);
  EXPECT_DOUBLE_EQ(object.required_quantity("latency", Quantity::kTime), 2e-6);
  EXPECT_TRUE(object.optional_bool("shared", false));
  EXPECT_EQ(object.required_object("inner").required_uint("x"), 1u);
  EXPECT_EQ(object.required_array("list").size(), 2u);
}

TEST(JsonObject, OptionalGettersFallBackWhenFieldIsAbsentOrNull) {
  const auto doc = nlohmann::json::parse(R"({"user": null})");
  const JsonObject object(doc, kWhere);
  EXPECT_EQ(object.optional_string("user", "default"), "default");
  EXPECT_EQ(object.optional_uint("count", 7), 7u);
  EXPECT_DOUBLE_EQ(object.optional_quantity("latency", Quantity::kTime, 3.0), 3.0);
  EXPECT_FALSE(object.optional_bool("shared", false));
  EXPECT_FALSE(object.has("user"));
}

// An object of up to 16 members is read from an array of them, a larger one
// from its tree: both find every member, tell keys of one length apart, and
// take a null member for an absent one.
TEST(JsonObject, FindsEveryMemberOfSmallAndLargeObjects) {
  for (const std::size_t members : {1, 15, 16, 17, 40}) {
    nlohmann::json doc = nlohmann::json::object();
    for (std::size_t i = 0; i < members; ++i) doc["f" + std::to_string(i)] = i;  // f1, f10, f11 ... of one length
    doc["none"] = nullptr;
    const JsonObject object(doc, kWhere);
    for (std::size_t i = 0; i < members; ++i)
      EXPECT_EQ(object.required_uint("f" + std::to_string(i)), i) << members << " members, field f" << i;
    EXPECT_FALSE(object.has("f" + std::to_string(members))) << members << " members";
    EXPECT_FALSE(object.has("none")) << members << " members";
    EXPECT_FALSE(object.has("f")) << members << " members";
  }
}

TEST(JsonObject, IntegralFloatIsAcceptedAsUnsigned) {
  const auto doc = nlohmann::json::parse(R"({"count": 8.0})");
  EXPECT_EQ(JsonObject(doc, kWhere).required_uint("count"), 8u);
}

TEST(JsonObject, MissingFieldErrorNamesFileWhereAndField) {
  const auto doc = nlohmann::json::parse(R"({"name": "dgx"})");
  const JsonObject object(doc, kWhere);
  const InputError e = error_of([&] { object.required_uint("gpus_per_node"); });
  EXPECT_EQ(e.file(), "cluster.json");
  EXPECT_EQ(e.where(), "node_groups[1]");
  EXPECT_EQ(e.field(), "gpus_per_node");
  EXPECT_TRUE(contains(e.problem(), "missing")) << e.problem();
  EXPECT_TRUE(contains(e.what(), "cluster.json: node_groups[1]: field 'gpus_per_node'")) << e.what();
}

struct FieldErrorCase {
  std::string name;
  std::string json;
  std::string field;
  std::string problem;  // part of the message saying what was expected
};

std::ostream& operator<<(std::ostream& out, const FieldErrorCase& c) { return out << c.name; }

// Each document is read with the getter named by the case (see FieldError below).
const FieldErrorCase kFieldErrors[] = {
    {"StringWhereUintExpected", R"({"count": "four"})", "count", "expected an integer >= 1"},
    {"FractionWhereUintExpected", R"({"count": 2.5})", "count", "expected an integer"},
    {"UintBelowMinimum", R"({"count": 0})", "count", ">= 1"},
    {"NegativeUint", R"({"count": -2})", "count", ">= 1"},
    {"IntegralFloatBeyondAnyUint", R"({"count": 3.3e69})", "count", "at most 18446744073709551615"},
    {"IntegralFloatOfTwoToThe64", R"({"count": 18446744073709551616.0})", "count", "at most 18446744073709551615"},
    {"NumberWhereStringExpected", R"({"name": 3})", "name", "expected a string"},
    {"EmptyString", R"({"name": ""})", "name", "must not be empty"},
    {"NegativeQuantity", R"({"nic": -5})", "nic", "must not be negative"},
    {"NegativeQuantityWithUnit", R"({"nic": "-5GB/s"})", "nic", "must not be negative"},
    {"ZeroWhereStrictlyPositive", R"({"flops": 0})", "flops", "greater than zero"},
    {"MalformedQuantity", R"({"nic": "fast"})", "nic", "a bandwidth"},
    {"ArrayWhereQuantityExpected", R"({"nic": [1]})", "nic", "a bandwidth"},
    {"NumberWhereBoolExpected", R"({"shared": 1})", "shared", "true or false"},
    {"StringWhereObjectExpected", R"({"inner": "x"})", "inner", "expected an object"},
    {"ObjectWhereArrayExpected", R"({"list": {}})", "list", "expected an array"},
    {"UnknownField", R"({"name": "a", "gpu_per_node": 8})", "gpu_per_node", "unknown field"},
};

void read_as_its_case_says(const JsonObject& object, const std::string& field) {
  if (field == "count") object.required_uint("count", 1);
  if (field == "name") object.required_string("name");
  if (field == "nic") object.required_quantity("nic", Quantity::kBandwidth);
  if (field == "flops") object.required_quantity("flops", Quantity::kFlops, /*strictly_positive=*/true);
  if (field == "shared") object.optional_bool("shared", false);
  if (field == "inner") object.required_object("inner");
  if (field == "list") object.required_array("list");
  if (field == "gpu_per_node") object.reject_unknown_fields({"name", "gpus_per_node"});
}

class FieldError : public ::testing::TestWithParam<FieldErrorCase> {};

TEST_P(FieldError, NamesFileWhereFieldAndWhatWasExpected) {
  const auto doc = nlohmann::json::parse(GetParam().json);
  const JsonObject object(doc, kWhere);
  const InputError e = error_of([&] { read_as_its_case_says(object, GetParam().field); });
  EXPECT_EQ(e.file(), "cluster.json");
  EXPECT_EQ(e.where(), "node_groups[1]");
  EXPECT_EQ(e.field(), GetParam().field);
  EXPECT_TRUE(contains(e.problem(), GetParam().problem)) << e.problem();
}

INSTANTIATE_TEST_SUITE_P(Table, FieldError, ::testing::ValuesIn(kFieldErrors),
                         [](const ::testing::TestParamInfo<FieldErrorCase>& info) { return info.param.name; });

TEST(JsonObject, UnknownFieldErrorListsTheKnownFields) {
  const auto doc = nlohmann::json::parse(R"({"gpu_per_node": 8})");
  const InputError e = error_of([&] {
    JsonObject(doc, kWhere).reject_unknown_fields({"count", "gpus_per_node", "name"});
  });
  EXPECT_TRUE(contains(e.problem(), "count, gpus_per_node, name")) << e.problem();
}

TEST(JsonObject, TheFirstUnknownFieldInTheObjectsOrderIsNamed) {
  const auto doc = nlohmann::json::parse(R"({"zeta": 1, "count": 2, "alpha": 3, "name": "a"})");
  const InputError e = error_of([&] { JsonObject(doc, kWhere).reject_unknown_fields({"count", "name"}); });
  EXPECT_EQ(e.field(), "alpha") << e.what();
}

TEST(JsonObject, KnownFieldsOnlyAreAccepted) {
  const auto doc = nlohmann::json::parse(R"({"name": "a", "count": 2})");
  EXPECT_NO_THROW(JsonObject(doc, kWhere).reject_unknown_fields({"name", "count", "extra"}));
}

TEST(JsonObject, NonObjectValueIsRejectedWithItsLocation) {
  const auto doc = nlohmann::json::parse("[1, 2]");
  const InputError e = error_of([&] { (void)JsonObject(doc, kWhere); });
  EXPECT_EQ(e.file(), "cluster.json");
  EXPECT_EQ(e.where(), "node_groups[1]");
  EXPECT_TRUE(contains(e.problem(), "expected a JSON object")) << e.problem();
}

TEST(JsonObject, NestedObjectErrorsNameTheNestedPath) {
  const auto doc = nlohmann::json::parse(R"({"fabric": {"oversubscription": "lots"}})");
  const JsonObject root(doc, {"cluster.json", ""});
  const JsonObject fabric = root.required_object("fabric");
  const InputError e = error_of([&] { fabric.required_quantity("oversubscription", Quantity::kPlain); });
  EXPECT_EQ(e.where(), "fabric");
  EXPECT_EQ(e.field(), "oversubscription");

  const JsonObject group(doc, kWhere);
  EXPECT_EQ(group.required_object("fabric").location().where, "node_groups[1].fabric");
}

TEST(JsonObject, LongOffendingValuesAreShortenedInMessages) {
  const std::string long_name(100, 'x');
  const auto doc = nlohmann::json{{"count", long_name}};
  const InputError e = error_of([&] { JsonObject(doc, kWhere).required_uint("count"); });
  EXPECT_FALSE(contains(e.problem(), long_name)) << e.problem();
  EXPECT_TRUE(contains(e.problem(), "...")) << e.problem();
}

// ---- parse_json_text ----------------------------------------------------------------

TEST(ParseJsonText, ParsesValidText) {
  const auto doc = parse_json_text(R"({"a": [1, 2, 3]})", "x.json");
  EXPECT_EQ(doc.at("a").size(), 3u);
}

TEST(ParseJsonText, SyntaxErrorReportsFileAndLine) {
  const std::string text =
      "{\n"
      "  \"name\": \"c\",\n"
      "  \"count\": ,\n"
      "  \"more\": 1\n"
      "}\n";
  const InputError e = error_of([&] { parse_json_text(text, "broken.json"); });
  EXPECT_EQ(e.file(), "broken.json");
  EXPECT_EQ(e.where().rfind("line 3, column ", 0), 0u) << e.where();
  EXPECT_TRUE(contains(e.problem(), "malformed JSON")) << e.problem();
}

TEST(ParseJsonText, SyntaxErrorReportsTheColumn) {
  const InputError e = error_of([&] { parse_json_text("{\n\"a\": 1,\n  \"b\" 2\n}", "c.json"); });
  // line 3 is `  "b" 2`: the 2 in column 7 is where a colon was expected.
  EXPECT_EQ(e.where(), "line 3, column 7");
}

TEST(ParseJsonText, ANumberTooLargeForADoubleIsAnErrorAtItsPlace) {
  // nlohmann reports the overflow without a place: it is located as a syntax error is.
  const InputError e = error_of([&] { parse_json_text("{\n\"a\": 1,\n\"b\": 1e999\n}", "c.json"); });
  EXPECT_EQ(e.file(), "c.json");
  EXPECT_EQ(e.where().rfind("line 3, column ", 0), 0u) << e.where();
  EXPECT_EQ(e.problem(), "malformed JSON: number overflow parsing '1e999'");
}

TEST(ParseJsonText, TruncatedDocumentIsASyntaxError) {
  const InputError e = error_of([&] { parse_json_text("{\"a\": [1, 2", "t.json"); });
  EXPECT_EQ(e.file(), "t.json");
  EXPECT_EQ(e.where().rfind("line 1, column ", 0), 0u) << e.where();
}

TEST(ReadJsonFile, MissingFileIsAnInputErrorNamingIt) {
  const std::string path = "/nonexistent-gcsim-dir/cluster.json";
  const InputError e = error_of([&] { read_json_file(path); });
  EXPECT_EQ(e.file(), path);
  EXPECT_TRUE(contains(e.problem(), "cannot open")) << e.problem();
}

}  // namespace
}  // namespace gcsim
