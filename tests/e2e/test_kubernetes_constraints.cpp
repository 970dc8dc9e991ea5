// Kubernetes placement constraints end to end: at most K jobs of an
// application on a node, node roles (CN, HN), RDMA shares and disk; the
// jobs no node can ever hold and bad fields are located input errors.
// Crafted nodes of 4 GPUs and 16 cores; every time counted by hand.
#include <gtest/gtest.h>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

nlohmann::json with(nlohmann::json job, const std::string& field, nlohmann::json value) {
  job[field] = std::move(value);
  return job;
}

nlohmann::json instance(const std::string& id, double submit, int gpus, double seconds, int max_per_node) {
  return with(with(measured_job(id, submit, gpus, seconds), "application", "app"), "max_instance_per_node",
              max_per_node);
}

// `nodes` GPU nodes ("n", 4 GPUs, 16 cores, 256 GB) and `cpu_nodes` CPU
// nodes ("c", 28 cores), each group given the fields of `gpu_group` and `cpu_group`.
std::string cluster_json(int nodes, int cpu_nodes, const nlohmann::json& gpu_group = nlohmann::json::object(),
                         const nlohmann::json& cpu_group = nlohmann::json::object()) {
  CraftedCluster c;
  c.nodes = nodes;
  c.gpus_per_node = 4;
  c.cpu_nodes = cpu_nodes;
  nlohmann::json doc = nlohmann::json::parse(c.to_json());
  for (nlohmann::json& group : doc["node_groups"])
    for (const auto& [field, value] : (group["name"] == "n" ? gpu_group : cpu_group).items()) group[field] = value;
  return doc.dump();
}

struct ConstraintCase {
  ScratchDir dir;
  GcsimRun run(const std::string& cluster, const std::vector<nlohmann::json>& jobs,
               const std::string& policy = "fifo") const {
    return run_gcsim({"run", "--cluster", dir.write("cluster.json", cluster), "--workload",
                      dir.write("workload.json", workload_json(jobs)), "--policy", policy, "--out", dir / "out",
                      "--quiet", "--check"});
  }
};

TEST(KubernetesConstraints, ASecondInstanceOfKOneWaitsForTheFirstToEndOnAOneNodeCluster) {
  // One node of 4 GPUs: a (1 GPU, 100 s) starts at 0; b (100 s), of the same
  // application with K = 1, would be its second instance there, so it waits
  // for a's end: 100 to 200, though 3 GPUs are free.
  for (const char* policy :
       {"fifo", "fifo-backfill", "gang", "drf", "srtf", "tiresias", "capacity", "piecemeal", "incremental", "crux"}) {
    SCOPED_TRACE(policy);
    const ConstraintCase r;
    const GcsimRun run = r.run(cluster_json(1, 0), {instance("a", 0, 1, 100, 1), instance("b", 0, 1, 100, 1)}, policy);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto jobs = read_jobs_csv(r.dir / "out");
    EXPECT_NEAR(jobs.at("a").start, 0, 1e-9);
    EXPECT_NEAR(jobs.at("b").start, 100, 1e-6);
    EXPECT_NEAR(jobs.at("b").end, 200, 1e-6);
  }
}

TEST(KubernetesConstraints, WithKTwoBothInstancesShareTheNode) {
  const ConstraintCase r;
  const GcsimRun run = r.run(cluster_json(1, 0), {instance("a", 0, 1, 100, 2), instance("b", 0, 1, 50, 2)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NEAR(read_jobs_csv(r.dir / "out").at("b").start, 0, 1e-9);
}

TEST(KubernetesConstraints, OnTwoNodesTheSecondInstanceStartsAtOnceOnTheOtherNode) {
  const ConstraintCase r;
  const GcsimRun run = r.run(cluster_json(2, 0), {instance("a", 0, 1, 100, 1), instance("b", 0, 1, 50, 1)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(r.dir / "out");
  EXPECT_NEAR(jobs.at("b").start, 0, 1e-9);
  EXPECT_EQ(jobs.at("a").placement, "n-0:0");
  EXPECT_EQ(jobs.at("b").placement, "n-1:0");
}

TEST(KubernetesConstraints, CpuInstancesOfKOneTakeTurnsOnTheOneCnNode) {
  // One CN CPU node (28 cores) and one HN GPU node: two CPU instances of
  // K = 1 asking CN (4 cores, 60 s) run one after the other on c-0 (0-60,
  // 60-120), never on the GPU node; the HN GPU job runs on n-0 at 0.
  const ConstraintCase r;
  const nlohmann::json cpu = {{"submit", 0},  {"cpu_cores", 4},       {"cpu", {{"seconds", 60}}},
                              {"role", "CN"}, {"application", "app"}, {"max_instance_per_node", 1}};
  const GcsimRun run =
      r.run(cluster_json(1, 1, {{"role", "HN"}}, {{"role", "CN"}}),
            {with(cpu, "id", "x"), with(cpu, "id", "y"), with(measured_job("g", 0, 1, 10), "role", "HN")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(r.dir / "out");
  EXPECT_NEAR(jobs.at("x").start, 0, 1e-9);
  EXPECT_NEAR(jobs.at("y").start, 60, 1e-6);
  EXPECT_NEAR(jobs.at("g").start, 0, 1e-9);
  EXPECT_EQ(jobs.at("g").placement, "n-0:0");
}

TEST(KubernetesConstraints, RdmaSharesOfANodesRnicsMakeAThirdJobWait) {
  // A node of 1 RNIC: two jobs of 40 percent run at 0, a third waits for the
  // first to end (100), the three making 120 of 100.
  const ConstraintCase r;
  const nlohmann::json job = with(measured_job("", 0, 1, 100), "rdma_percent", 40);
  const GcsimRun run =
      r.run(cluster_json(1, 0, {{"rnics", 1}}),
            {with(job, "id", "a"), with(with(job, "id", "b"), "duration", {{"seconds", 200}, {"gpu_type", "GPU"}}),
             with(job, "id", "c")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto jobs = read_jobs_csv(r.dir / "out");
  EXPECT_NEAR(jobs.at("b").start, 0, 1e-9);
  EXPECT_NEAR(jobs.at("c").start, 100, 1e-6);
}

TEST(KubernetesConstraints, DiskOfTheNodeMakesASecondJobWait) {
  const ConstraintCase r;
  const nlohmann::json job = with(measured_job("", 0, 1, 100), "disk", "600GB");
  const GcsimRun run = r.run(cluster_json(1, 0, {{"disk", "1TB"}}), {with(job, "id", "a"), with(job, "id", "b")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NEAR(read_jobs_csv(r.dir / "out").at("b").start, 100, 1e-6);
}

TEST(KubernetesConstraints, AJobNoNodeCanEverHoldIsRefusedUpFront) {
  const ScratchDir dir;
  const std::string plain = dir.write("plain.json", cluster_json(2, 0));
  const std::string roles =
      dir.write("roles.json", cluster_json(2, 1, {{"role", "HN"}, {"rnics", 2}, {"disk", "1TB"}}, {{"role", "CN"}}));
  {
    SCOPED_TRACE("a role no node group has");
    const ScratchDir d;
    expect_job_rejected(d, plain, with(measured_job("j", 0, 1, 10), "role", "HN"),
                        {"jobs[0] (id 'j')", "field 'role'", "asks nodes of role 'HN'"});
  }
  {
    SCOPED_TRACE("more RDMA than 100 percent x the RNICs of any node");
    const ScratchDir d;
    expect_job_rejected(d, roles, with(with(measured_job("j", 0, 1, 10), "rdma_percent", 201), "single_node", true),
                        {"jobs[0] (id 'j')", "field 'rdma_percent'", "201 percent"});
  }
  {
    SCOPED_TRACE("RDMA on a cluster of no RNIC");
    const ScratchDir d;
    expect_job_rejected(d, plain, with(measured_job("j", 0, 1, 10), "rdma_percent", 1), {"field 'rdma_percent'"});
  }
  {
    SCOPED_TRACE("more disk than any node");
    const ScratchDir d;
    expect_job_rejected(d, roles, with(measured_job("j", 0, 1, 10), "disk", "2TB"), {"field 'disk'"});
  }
  {
    SCOPED_TRACE("a CPU job asking HN of a cluster whose HN nodes lack its cores");
    const ScratchDir d;
    expect_job_rejected(d, roles,
                        {{"id", "j"}, {"submit", 0}, {"cpu_cores", 20}, {"cpu", {{"seconds", 10}}}, {"role", "HN"}},
                        {"field 'cpu_cores'"});
  }
}

TEST(KubernetesConstraints, BadFieldsAreLocatedInputErrors) {
  const ScratchDir dir;
  const std::string plain = dir.write("plain.json", cluster_json(1, 0));
  const struct {
    nlohmann::json job;
    std::string field, part;
  } cases[] = {
      {with(with(measured_job("j", 0, 1, 10), "application", "app"), "max_instance_per_node", -1),
       "max_instance_per_node", "expected at least 1"},
      {with(with(measured_job("j", 0, 1, 10), "application", "app"), "max_instance_per_node", 0),
       "max_instance_per_node", "expected at least 1"},
      {with(measured_job("j", 0, 1, 10), "max_instance_per_node", 2), "max_instance_per_node", "\"application\""},
      {with(measured_job("j", 0, 1, 10), "role", "GPU"), "role", "expected \"CN\""},
      {with(measured_job("j", 0, 1, 10), "rdma_percent", -5), "rdma_percent", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.job.dump());
    const ScratchDir d;
    expect_job_rejected(d, plain, c.job, {"jobs[0] (id 'j')", "field '" + c.field + "'", c.part});
  }
  // A node group of an unknown role.
  const ScratchDir d;
  const GcsimRun run = run_simulation(d.write("cluster.json", cluster_json(1, 0, {{"role", "XN"}})),
                                      d.write("w.json", workload_json({measured_job("j", 0, 1, 10)})), d / "out");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("node_groups[0]"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("field 'role'"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace gcsim::testing
