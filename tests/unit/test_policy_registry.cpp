// Specification of PolicyRegistry: policies and placements found by name,
// each policy handed its placement (chosen, or its default), and every
// unknown or duplicated name reported.
#include "sim/core/policy_registry.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A placement that only knows its name.
class NamedPlacement final : public PlacementPolicy {
 public:
  explicit NamedPlacement(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  std::optional<std::vector<GpuId>> place(const JobSpec&, const ClusterView&, const std::vector<bool>&) const override {
    return std::nullopt;
  }

 private:
  std::string name_;
};

// A policy that keeps what its factory was given, so tests can look at it.
class RecordingPolicy final : public SchedulingPolicy {
 public:
  RecordingPolicy(std::string name, PolicyOptions options, std::unique_ptr<PlacementPolicy> placement)
      : name_(std::move(name)), options_(std::move(options)), placement_(std::move(placement)) {}
  std::string_view name() const override { return name_; }
  void schedule(const SchedulingContext&, Plan&) override {}

  const PolicyOptions& options() const { return options_; }
  const PlacementPolicy* placement() const { return placement_.get(); }

 private:
  std::string name_;
  PolicyOptions options_;
  std::unique_ptr<PlacementPolicy> placement_;
};

PolicyRegistry::PlacementFactory placement_named(const std::string& name) {
  return [name](const PolicyOptions&) { return std::make_unique<NamedPlacement>(name); };
}

PolicyRegistry::PolicyFactory policy_named(const std::string& name) {
  return [name](const PolicyOptions& options, std::unique_ptr<PlacementPolicy> placement) {
    return std::make_unique<RecordingPolicy>(name, options, std::move(placement));
  };
}

// Policies "alpha" (default placement "near") and "beta" (no default);
// placements "near" and "far".
PolicyRegistry sample_registry() {
  PolicyRegistry registry;
  registry.add_placement("near", "same node first", placement_named("near"));
  registry.add_placement("far", "spread out", placement_named("far"));
  registry.add_policy("alpha", "first policy", "near", policy_named("alpha"));
  registry.add_policy("beta", "second policy", "", policy_named("beta"));
  return registry;
}

const RecordingPolicy& as_recording(const std::unique_ptr<SchedulingPolicy>& policy) {
  return dynamic_cast<const RecordingPolicy&>(*policy);
}

// ---- lookup by name ---------------------------------------------------------------

TEST(PolicyRegistry, MakesThePolicyRegisteredUnderTheName) {
  const PolicyRegistry registry = sample_registry();
  const auto policy = registry.make_policy("beta", {});
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(policy->name(), "beta");
}

// ---- wrappers ("WRAPPER:POLICY") -------------------------------------------------

PolicyRegistry::WrapperFactory wrapper_reading(const std::string& option) {
  return [option](const PolicyOptions& options, std::unique_ptr<SchedulingPolicy> inner) {
    (void)options.count(option);
    return inner;  // the inner policy itself: the test reads its name
  };
}

TEST(PolicyRegistry, AWrapperReceivesTheInnerPolicyAndReadsItsOwnOptions) {
  PolicyRegistry registry = sample_registry();
  registry.add_wrapper("budget", "a wrapper", wrapper_reading("kw"));
  const auto policy = registry.make_policy("budget:alpha", {{"kw", "1"}});
  EXPECT_EQ(policy->name(), "alpha");
  EXPECT_NE(as_recording(policy).placement(), nullptr);                               // alpha's default placement
  EXPECT_THROW(registry.make_policy("alpha", {{"kw", "1"}}), std::invalid_argument);  // nobody reads kw
  EXPECT_THROW(registry.make_policy("other:alpha", {}), UnknownPolicy);
}

TEST(PolicyRegistry, APolicyRegisteredUnderANameWithAColonIsNotTakenForAWrapper) {
  PolicyRegistry registry = sample_registry();
  registry.add_wrapper("python", "a wrapper", wrapper_reading("kw"));
  registry.add_policy("python:Mine", "a policy written in Python", "", policy_named("python:Mine"));
  EXPECT_EQ(registry.make_policy("python:Mine", {})->name(), "python:Mine");
}

TEST(PolicyRegistry, UnknownPolicyErrorNamesItAndListsTheKnownPolicies) {
  const PolicyRegistry registry = sample_registry();
  try {
    registry.make_policy("gamma", {});
    FAIL() << "an unknown policy was made";
  } catch (const UnknownPolicy& e) {
    EXPECT_TRUE(contains(e.what(), "'gamma'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "alpha, beta")) << e.what();
  }
}

TEST(PolicyRegistry, UnknownPlacementErrorNamesItAndListsTheKnownPlacements) {
  const PolicyRegistry registry = sample_registry();
  try {
    registry.make_placement("nowhere", {});
    FAIL() << "an unknown placement was made";
  } catch (const UnknownPolicy& e) {
    EXPECT_TRUE(contains(e.what(), "'nowhere'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "far, near")) << e.what();
  }
}

TEST(PolicyRegistry, UnknownPlacementChosenForAPolicyIsReported) {
  const PolicyRegistry registry = sample_registry();
  EXPECT_THROW(registry.make_policy("alpha", {}, "nowhere"), UnknownPolicy);
}

TEST(PolicyRegistry, EmptyRegistryReportsNoKnownNames) {
  const PolicyRegistry registry;
  EXPECT_THROW(registry.make_policy("fifo", {}), UnknownPolicy);
  EXPECT_TRUE(registry.policies().empty());
  EXPECT_TRUE(registry.placements().empty());
}

// ---- registration --------------------------------------------------------------------

TEST(PolicyRegistry, RegisteringAPolicyNameTwiceThrows) {
  PolicyRegistry registry = sample_registry();
  EXPECT_THROW(registry.add_policy("alpha", "again", "", policy_named("impostor")), std::logic_error);
}

TEST(PolicyRegistry, RegisteringAPlacementNameTwiceThrows) {
  PolicyRegistry registry = sample_registry();
  EXPECT_THROW(registry.add_placement("near", "again", placement_named("impostor")), std::logic_error);
}

TEST(PolicyRegistry, DuplicateRegistrationKeepsTheFirstEntry) {
  PolicyRegistry registry = sample_registry();
  EXPECT_ANY_THROW(registry.add_policy("alpha", "again", "", policy_named("impostor")));
  EXPECT_EQ(registry.make_policy("alpha", {})->name(), "alpha");
  ASSERT_EQ(registry.policies().size(), 2u);
  EXPECT_EQ(registry.policies()[0].summary, "first policy");
}

TEST(PolicyRegistry, ListsPoliciesAndPlacementsByNameWithSummaries) {
  const PolicyRegistry registry = sample_registry();
  const auto policies = registry.policies();
  ASSERT_EQ(policies.size(), 2u);
  EXPECT_EQ(policies[0].name, "alpha");
  EXPECT_EQ(policies[0].summary, "first policy");
  EXPECT_EQ(policies[1].name, "beta");
  const auto placements = registry.placements();
  ASSERT_EQ(placements.size(), 2u);
  EXPECT_EQ(placements[0].name, "far");
  EXPECT_EQ(placements[1].name, "near");
  EXPECT_EQ(placements[1].summary, "same node first");
}

// ---- placements handed to policies -------------------------------------------------

TEST(PolicyRegistry, DefaultPlacementIsHandedToTheFactory) {
  const PolicyRegistry registry = sample_registry();
  const auto policy = registry.make_policy("alpha", {});
  const PlacementPolicy* placement = as_recording(policy).placement();
  ASSERT_NE(placement, nullptr);
  EXPECT_EQ(placement->name(), "near");
}

TEST(PolicyRegistry, ChosenPlacementOverridesTheDefault) {
  const PolicyRegistry registry = sample_registry();
  const auto policy = registry.make_policy("alpha", {}, "far");
  const PlacementPolicy* placement = as_recording(policy).placement();
  ASSERT_NE(placement, nullptr);
  EXPECT_EQ(placement->name(), "far");
}

TEST(PolicyRegistry, PolicyWithoutDefaultPlacementGetsNoneUnlessOneIsChosen) {
  const PolicyRegistry registry = sample_registry();
  EXPECT_EQ(as_recording(registry.make_policy("beta", {})).placement(), nullptr);
  const auto chosen = registry.make_policy("beta", {}, "near");
  ASSERT_NE(as_recording(chosen).placement(), nullptr);
  EXPECT_EQ(as_recording(chosen).placement()->name(), "near");
}

TEST(PolicyRegistry, OptionsReachThePolicyFactory) {
  PolicyRegistry registry;
  std::string quantum;
  registry.add_policy("p", "", "", [&quantum](const PolicyOptions& options, std::unique_ptr<PlacementPolicy>) {
    quantum = options.at("quantum");
    return std::make_unique<RecordingPolicy>("p", options, nullptr);
  });
  registry.make_policy("p", {{"quantum", "60"}});
  EXPECT_EQ(quantum, "60");
}

TEST(PolicyRegistry, OptionsReachThePlacementFactory) {
  PolicyRegistry registry;
  std::string racks;
  registry.add_placement("spy", "", [&racks](const PolicyOptions& options) {
    if (auto it = options.find("racks"); it != options.end()) racks = it->second;
    return std::make_unique<NamedPlacement>("spy");
  });
  registry.add_policy("p", "", "spy", policy_named("p"));
  registry.make_policy("p", {{"racks", "2"}});
  EXPECT_EQ(racks, "2");
}

TEST(PolicyRegistry, AnOptionNoFactoryLooksUpIsRejected) {
  PolicyRegistry registry;
  registry.add_policy("p", "", "", [](const PolicyOptions& options, std::unique_ptr<PlacementPolicy>) {
    options.find("preemptive");
    return std::make_unique<RecordingPolicy>("p", options, nullptr);
  });
  try {
    registry.make_policy("p", {{"preemtive", "false"}});
    FAIL() << "a misspelt option was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("takes no option 'preemtive'"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(registry.make_policy("p", {{"preemptive", "false"}}));
}

TEST(PolicyRegistry, TheSeedIsAlwaysAccepted) {
  PolicyRegistry registry;
  registry.add_policy("p", "", "", policy_named("p"));
  EXPECT_NO_THROW(registry.make_policy("p", PolicyOptions::from_pairs({}, 42)));
  EXPECT_THROW(PolicyOptions::from_pairs({"novalue"}, 0), std::invalid_argument);
  EXPECT_EQ(PolicyOptions::from_pairs({"a=1=2"}, 0).at("a"), "1=2");
}

// The message of a std::invalid_argument `read` throws, or "" when it throws none.
template <typename Read>
std::string rejection(Read read) {
  try {
    read();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(PolicyOptionReaders, FlagsAreTrueOrFalse) {
  const PolicyOptions options{{"on", "true"}, {"off", "false"}, {"typo", "yes"}};
  EXPECT_TRUE(options.flag("on", false));
  EXPECT_FALSE(options.flag("off", true));
  EXPECT_TRUE(options.flag("absent", true));
  EXPECT_EQ(rejection([&] { options.flag("typo", false); }), "option typo must be true or false, got 'yes'");
  EXPECT_TRUE(options.never_looked_up().empty());  // every key read counts as looked up
}

TEST(PolicyOptionReaders, NumbersKeepTheirBound) {
  const PolicyOptions options{{"zero", "0"}, {"half", "0.5"}, {"word", "3s"}, {"inf", "inf"}, {"minus", "-1"}};
  EXPECT_EQ(options.number("zero", 7, PolicyOptions::AtLeast{0}), 0);
  EXPECT_EQ(options.number("half", 7, PolicyOptions::Above{0}), 0.5);
  EXPECT_EQ(options.number("absent", 7, PolicyOptions::Above{0}), 7);
  EXPECT_EQ(rejection([&] { options.number("zero", 1, PolicyOptions::Above{0}); }),
            "option zero must be a number > 0, got '0'");
  EXPECT_EQ(rejection([&] { options.number("minus", 1, PolicyOptions::AtLeast{0}); }),
            "option minus must be a number >= 0, got '-1'");
  EXPECT_EQ(rejection([&] { options.number("word", 1, PolicyOptions::AtLeast{0}); }),
            "option word must be a number >= 0, got '3s'");
  EXPECT_EQ(rejection([&] { options.number("inf", 1, PolicyOptions::AtLeast{0}); }),
            "option inf must be a number >= 0, got 'inf'");
}

TEST(PolicyOptionReaders, ListsOfNumbers) {
  const PolicyOptions options{{"t", "3200,25600"}, {"bad", "1,,2"}, {"trailing", "1,"}, {"neg", "1,-2"}};
  EXPECT_EQ(options.numbers("t", {1}, PolicyOptions::Above{0}), (std::vector<double>{3200, 25600}));
  EXPECT_EQ(options.numbers("absent", {1}, PolicyOptions::Above{0}), (std::vector<double>{1}));
  for (const char* key : {"bad", "trailing", "neg"})
    EXPECT_NE(
        rejection([&] { options.numbers(key, {}, PolicyOptions::Above{0}); }).find("must be a list of numbers > 0"),
        std::string::npos)
        << key;
}

TEST(PolicyRegistry, ABadOptionValueIsNamedWithItsPolicy) {
  PolicyRegistry registry;
  registry.add_policy("p", "", "", [](const PolicyOptions& options, std::unique_ptr<PlacementPolicy>) {
    options.flag("preemptive", true);
    return std::make_unique<RecordingPolicy>("p", options, nullptr);
  });
  EXPECT_EQ(rejection([&] {
              registry.make_policy("p", {{"preemptive", "maybe"}});
            }),
            "p: option preemptive must be true or false, got 'maybe'");
}

}  // namespace
}  // namespace gcsim
