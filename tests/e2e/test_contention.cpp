// `gcsim run --contention`: who slowed whom, counted by hand on crafted
// clusters and on a variant of the bundled H100 rail cluster; and a run
// without it writes what it wrote before.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "tests/e2e/gcsim_runner.hpp"

namespace gcsim::testing {
namespace {

struct ContentionRow {
  double shared = 0, lost = 0;
};
using RowKey = std::tuple<std::string, std::string, std::string>;  // job, other job, link

std::map<RowKey, ContentionRow> read_contention_csv(const std::string& out_dir) {
  std::ifstream in(out_dir + "/contention.csv");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "job,other_job,link,seconds_shared,seconds_lost");
  std::map<RowKey, ContentionRow> rows;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string job, other, link, shared, lost;
    std::getline(fields, job, ',');
    std::getline(fields, other, ',');
    std::getline(fields, link, ',');
    std::getline(fields, shared, ',');
    std::getline(fields, lost, ',');
    rows[{job, other, link}] = {std::stod(shared), std::stod(lost)};
  }
  return rows;
}

double lost_by(const std::map<RowKey, ContentionRow>& rows, const std::string& job) {
  double lost = 0;
  for (const auto& [key, row] : rows)
    if (std::get<0>(key) == job) lost += row.lost;
  return lost;
}

// Three nodes of two GPUs; two 3-GPU rings, a on n-0 and n-2's first GPU, b
// on n-1 and n-2's second (test_link_sharing.cpp): each ring's hops between
// nodes cross n-2's NIC, one flow each way per ring.
CraftedCluster three_small_nodes() {
  CraftedCluster c;
  c.nodes = 3;
  c.gpus_per_node = 2;
  return c;
}

constexpr double kFlops = 1e9, kGradient = 300e6;
constexpr int kIterations = 10;

// Each ring step sends S/3 = 100 MB a hop. Alone, a hop between nodes has
// its NICs (10 GB/s) to itself: 10 ms after its latency (a port, two NICs, a
// port: 12 us). Together the two rings' hops share n-2's NIC each way, 5 GB/s
// each: 20 ms. The 40 ring steps (10 iterations x 2(3-1)) of each job lose
// 10 ms each, 0.4 s in all, and n-2's NIC holds the job back both ways alike
// during every step: 0.2 s on each direction, all due to the other ring.
TEST(Contention, TwoRingsThroughOneNicLoseTheirSharedTimeToEachOtherOnIt) {
  const CraftedCluster cluster = three_small_nodes();
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", cluster.to_json());
  const auto workload =
      dir.write("jobs.json", workload_json({training_job("a", 0, 3, kFlops, kGradient, kIterations),
                                            training_job("b", 0, 3, kFlops, kGradient, kIterations)}));
  const double hop = kGradient / 3;
  const double latency = cluster.intra_latency + 2 * cluster.nic_latency;
  const int steps = kIterations * 2 * (3 - 1);
  const double lost = steps * (hop / (cluster.nic_bandwidth / 2) - hop / cluster.nic_bandwidth);
  for (const char* fidelity : {"iteration", "job"}) {
    const GcsimRun run =
        run_simulation(cluster_file, workload, dir / fidelity, {"--fidelity", fidelity, "--contention"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_jobs_csv(dir / fidelity).at("a").placement, "n-0:0;n-0:1;n-2:0");
    const auto rows = read_contention_csv(dir / fidelity);
    ASSERT_EQ(rows.size(), 4u) << fidelity;
    for (const auto& [job, other] : {std::pair{"a", "b"}, std::pair{"b", "a"}}) {
      for (const char* link : {"n-2-nic_UP", "n-2-nic_DOWN"}) {
        const ContentionRow& row = rows.at({job, other, link});
        EXPECT_NEAR(row.lost, lost / 2, 1e-6 * lost) << fidelity << " " << job << " " << link;
        // Both rings are on the link for every step they take (job fidelity
        // merges them into one step of each round, paying one latency).
        const int merged = std::string(fidelity) == "job" ? 4 : steps;
        const double shared = merged * latency + steps * hop / (cluster.nic_bandwidth / 2);
        EXPECT_NEAR(row.shared, shared, 1e-6 * shared) << fidelity << " " << job << " " << link;
      }
      EXPECT_NEAR(lost_by(rows, job), lost, 1e-6 * lost) << fidelity;
    }
    const nlohmann::json figures = read_summary(dir / fidelity)["contention"];
    // The parts add up to the slowdown measured: communication against alone.
    const double slowdown = figures["communication_seconds"].get<double>() - figures["alone_seconds"].get<double>();
    EXPECT_NEAR(lost_by(rows, "a") + lost_by(rows, "b"), slowdown, 0.01 * slowdown) << fidelity;
    EXPECT_NEAR(figures["lost_seconds"].get<double>(), 2 * lost, 1e-6 * lost) << fidelity;
    // Each job ran 0.81 s and lost 0.4 s of it.
    EXPECT_EQ(figures["jobs_ran"], 2);
    EXPECT_EQ(figures["share_lost_over_5pct"], 1.0);
    EXPECT_EQ(figures["share_lost_over_20pct"], 1.0);
    ASSERT_EQ(figures["most_contended_links"].size(), 2u);
    EXPECT_NEAR(figures["most_contended_links"][0]["seconds_lost"].get<double>(), lost, 1e-6 * lost);
    // n-2's NIC is busy whenever the rings send: 2 x 40 hops of 100 MB at 10 GB/s.
    const std::string use = read_text(dir / fidelity + "/link_utilization.csv");
    EXPECT_EQ(use.rfind("link,time,used\n", 0), 0u);
    EXPECT_NE(use.find("n-2-nic_UP,"), std::string::npos);
  }
}

TEST(Contention, AJobAloneHasNoRowsAndNoJobLostTime) {
  const CraftedCluster cluster = three_small_nodes();
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", cluster.to_json());
  const auto workload =
      dir.write("jobs.json", workload_json({training_job("a", 0, 3, kFlops, kGradient, kIterations)}));
  for (const char* fidelity : {"iteration", "job"}) {
    const GcsimRun run =
        run_simulation(cluster_file, workload, dir / fidelity, {"--fidelity", fidelity, "--contention"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_TRUE(read_contention_csv(dir / fidelity).empty()) << fidelity;
    const nlohmann::json figures = read_summary(dir / fidelity)["contention"];
    EXPECT_EQ(figures["jobs_ran"], 1);
    EXPECT_EQ(figures["share_lost_over_5pct"], 0.0);
    EXPECT_EQ(figures["share_lost_over_20pct"], 0.0);
    EXPECT_EQ(figures["lost_seconds"], 0.0);
    EXPECT_GT(figures["communication_seconds"].get<double>(), 0.4);
    const double alone = figures["alone_seconds"].get<double>();
    EXPECT_NEAR(figures["communication_seconds"].get<double>(), alone, 1e-9 * alone);
    EXPECT_TRUE(figures["most_contended_links"].empty());
  }
}

// Following the flows changes nothing the run writes: the same jobs.csv and
// timeline.csv byte for byte, summary.json with "contention" added; and
// without --contention there is no such file or field.
TEST(Contention, WithoutTheFlagNothingIsFollowedAndTheOtherOutputsStayAsTheyAre) {
  ScratchDir dir;
  const auto crafted = dir.write("cluster.json", three_small_nodes().to_json());
  const auto crafted_jobs = dir.write("jobs.json", workload_json({training_job("a", 0, 3, kFlops, kGradient, 10),
                                                                  training_job("b", 2, 3, kFlops, kGradient, 20)}));
  const std::vector<std::pair<std::string, std::string>> runs{
      {crafted, crafted_jobs}, {scenario("clusters/h100-rails-1024gpu.json"), scenario("workloads/llm-two-jobs.json")}};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string plain = dir / ("plain" + std::to_string(i)), followed = dir / ("followed" + std::to_string(i));
    GcsimRun run = run_simulation(runs[i].first, runs[i].second, plain, {"--no-wall-time"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    run = run_simulation(runs[i].first, runs[i].second, followed, {"--no-wall-time", "--contention"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::vector<std::string> files = files_in(plain);
    std::sort(files.begin(), files.end());
    EXPECT_EQ(files, (std::vector<std::string>{"jobs.csv", "summary.json", "timeline.csv"}));
    EXPECT_EQ(read_text(plain + "/jobs.csv"), read_text(followed + "/jobs.csv")) << runs[i].second;
    EXPECT_EQ(read_text(plain + "/timeline.csv"), read_text(followed + "/timeline.csv")) << runs[i].second;
    // summary.json, byte for byte, once its "contention" object is taken out.
    std::string summary = read_text(followed + "/summary.json");
    const std::size_t from = summary.find("  \"contention\": {\n");
    ASSERT_NE(from, std::string::npos);
    summary.erase(from, summary.find("\n  },\n", from) + 6 - from);
    EXPECT_EQ(summary, read_text(plain + "/summary.json")) << runs[i].second;
  }
}

// A 1.2B-parameter model (24 layers, hidden 2048, sequence 2048, 2-byte
// elements) trained for 2 iterations of `global_batch` sequences, one a
// micro-batch, on `gpus` GPUs split as `parallel` says.
nlohmann::json small_llm_job(const std::string& id, int gpus, int global_batch, const nlohmann::json& parallel) {
  return {{"id", id},
          {"submit", 0},
          {"gpus", gpus},
          {"llm_training",
           {{"model",
             {{"parameters", 1.2e9},
              {"layers", 24},
              {"hidden_size", 2048},
              {"sequence_length", 2048},
              {"vocabulary_size", 32000},
              {"global_batch", global_batch},
              {"micro_batch", 1},
              {"bytes_per_element", 2}}},
            {"parallel", parallel},
            {"iterations", 2}}}};
}

// small_llm_job on TP 8 x DP 3 (24 GPUs), its gradients allreduced after the backward.
nlohmann::json data_parallel_llm_job(const std::string& id) {
  nlohmann::json spec = small_llm_job(id, 24, 6, {{"tensor", 8}, {"pipeline", 1}, {"data", 3}});
  spec["llm_training"]["gradients"] = "allreduce";
  spec["llm_training"]["dp_overlap"] = 0;
  return spec;
}

// Two LLM jobs (TP 8 inside a node, DP 3, 1.2e9 parameters, bf16 gradients
// allreduced after the backward) on the bundled H100 rail cluster, its racks
// cut to two nodes and their leaves' uplinks oversubscribed 2:1 (two NICs of
// 50 GB/s over 50 GB/s). fifo places a on nodes 0, 1 and 127, b on 2, 3 and
// 126: each DP ring of a (one per rail) crosses rack 63's uplink of its rail
// up (127 -> 0) and down (1 -> 127), and so does b's (126 -> 2, 3 -> 126).
// Alone, every DP hop runs at 50 GB/s; together, each uplink direction of
// rack 63 is halved between a's hop and b's. A DP hop carries 2(d-1)/d x G
// per iteration, G = P x 2 bytes / t = 300 MB: 400 MB, 8 ms alone, 16 ms
// together. Two iterations: each job loses 16 ms, split evenly over the 16
// uplink directions of rack 63 (8 rails x up and down): 1 ms each, all due
// to the other job. The TP rings stay inside nodes and share nothing.
TEST(Contention, AnLlmPairUnderAnOversubscribedLeafLosesItsDataParallelTimeOnItsUplinks) {
  nlohmann::json cluster = nlohmann::json::parse(read_text(scenario("clusters/h100-rails-1024gpu.json")));
  cluster["fabric"]["nodes_per_rack"] = 2;
  cluster["fabric"]["oversubscription"] = 2;
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", cluster.dump());
  const auto workload = dir.write("jobs.json", workload_json({data_parallel_llm_job("a"), data_parallel_llm_job("b")}));
  const double hop_bytes = 2.0 * (3 - 1) / 3 * (1.2e9 * 2 / 8);
  const double lost = 2 * (hop_bytes / 25e9 - hop_bytes / 50e9);
  for (const char* fidelity : {"iteration", "job"}) {
    const GcsimRun run =
        run_simulation(cluster_file, workload, dir / fidelity, {"--fidelity", fidelity, "--contention"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto jobs = read_jobs_csv(dir / fidelity);
    EXPECT_EQ(jobs.at("a").placement.substr(0, 14), "dgx-h100-0:0;d");
    EXPECT_NE(jobs.at("a").placement.find("dgx-h100-127:7"), std::string::npos);
    EXPECT_NE(jobs.at("b").placement.find("dgx-h100-126:0"), std::string::npos);
    const auto rows = read_contention_csv(dir / fidelity);
    ASSERT_EQ(rows.size(), 32u) << fidelity;
    for (const auto& [name, other] : {std::pair{"a", "b"}, std::pair{"b", "a"}}) {
      for (int rail = 0; rail < 8; ++rail)
        for (const char* way : {"_UP", "_DOWN"}) {
          const std::string link = "rack63-rail" + std::to_string(rail) + "-uplink" + way;
          EXPECT_NEAR(rows.at({name, other, link}).lost, lost / 16, 1e-6 * lost) << fidelity << " " << link;
        }
      EXPECT_NEAR(lost_by(rows, name), lost, 0.01 * lost) << fidelity;
    }
    const nlohmann::json figures = read_summary(dir / fidelity)["contention"];
    const double slowdown = figures["communication_seconds"].get<double>() - figures["alone_seconds"].get<double>();
    EXPECT_NEAR(slowdown, 2 * lost, 0.01 * lost) << fidelity;
    EXPECT_EQ(figures["share_lost_over_20pct"], 1.0);
  }
}

// The same pair with the leaves' uplinks at 1:1 (two NICs of 50 GB/s over
// 100 GB/s): nothing can fill an uplink, so the DP hops that cross rack 63's
// are solo on rails 1 to 7 (rail 0's NICs carry the nodes' CPU hosts too)
// and one flow stands for each rail's like hops of a ring in a run that does
// not follow the network (sim/model/solo_transfers.hpp). --contention starts
// a flow per hop: the jobs' ends must not move, and nothing is lost.
TEST(Contention, HopsOverUplinksNothingCanFillEndAsTheirOwnFlowsWould) {
  nlohmann::json cluster = nlohmann::json::parse(read_text(scenario("clusters/h100-rails-1024gpu.json")));
  cluster["fabric"]["nodes_per_rack"] = 2;
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", cluster.dump());
  const auto workload = dir.write("jobs.json", workload_json({data_parallel_llm_job("a"), data_parallel_llm_job("b")}));
  for (const char* fidelity : {"iteration", "job"}) {
    const std::string merged = dir / (std::string(fidelity) + "-merged");
    const std::string followed = dir / (std::string(fidelity) + "-followed");
    const GcsimRun fast = run_simulation(cluster_file, workload, merged, {"--fidelity", fidelity});
    ASSERT_EQ(fast.exit_code, 0) << fast.err;
    const GcsimRun each = run_simulation(cluster_file, workload, followed, {"--fidelity", fidelity, "--contention"});
    ASSERT_EQ(each.exit_code, 0) << each.err;
    const auto fast_jobs = read_jobs_csv(merged);
    const auto each_jobs = read_jobs_csv(followed);
    for (const char* name : {"a", "b"}) {
      EXPECT_NE(fast_jobs.at(name).placement.find(name == std::string("a") ? "dgx-h100-127:7" : "dgx-h100-126:7"),
                std::string::npos)
          << fidelity << " " << name;
      EXPECT_NEAR(fast_jobs.at(name).end, each_jobs.at(name).end, 1e-9 * each_jobs.at(name).end)
          << fidelity << " " << name;
    }
    EXPECT_NEAR(lost_by(read_contention_csv(followed), "a"), 0, 1e-9) << fidelity;
    EXPECT_NEAR(lost_by(read_contention_csv(followed), "b"), 0, 1e-9) << fidelity;
  }
}

// A tensor-parallel ring's four hops inside a node are solo
// (sim/model/solo_transfers.hpp: each GPU's port carries one hop up and one
// down; without PXN no other GPU's transfer crosses them), and one flow
// stands for them in a run that does not follow the network; with
// --contention each is a flow on its own ports: the eight port directions
// are the eight busiest links of link_utilization.csv, each busy, at both
// fidelities.
TEST(Contention, EachHopOfASoloRingLoadsItsOwnPorts) {
  nlohmann::json cluster = nlohmann::json::parse(read_text(scenario("clusters/h100-rails-1024gpu.json")));
  cluster["fabric"]["pxn"] = false;
  const nlohmann::json job = small_llm_job("tp", 4, 8, {{"tensor", 4}, {"pipeline", 1}, {"data", 1}});
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", cluster.dump());
  const auto workload = dir.write("jobs.json", workload_json({job}));
  for (const char* fidelity : {"iteration", "job"}) {
    const GcsimRun run =
        run_simulation(cluster_file, workload, dir / fidelity, {"--fidelity", fidelity, "--contention"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::istringstream use(read_text(dir / fidelity + "/link_utilization.csv"));
    std::map<std::string, double> busiest;
    std::string line;
    std::getline(use, line);
    while (std::getline(use, line)) {
      const std::size_t first = line.find(','), last = line.rfind(',');
      double& most = busiest[line.substr(0, first)];
      most = std::max(most, std::stod(line.substr(last + 1)));
    }
    EXPECT_EQ(busiest.size(), 8u) << fidelity;
    for (int gpu = 0; gpu < 4; ++gpu)
      for (const char* way : {"_UP", "_DOWN"}) {
        const std::string port = "dgx-h100-0-gpu" + std::to_string(gpu) + "-port" + way;
        ASSERT_EQ(busiest.count(port), 1u) << fidelity << " " << port;
        EXPECT_GT(busiest.at(port), 0.5) << fidelity << " " << port;
      }
  }
}

// The bundled pair (scenarios/workloads/llm-contended-pair.json) on the
// bundled rail cluster whose leaf uplinks are oversubscribed 4:1
// (h100-rails-1024gpu-4to1.json): two 175B-like jobs, TP8 x PP8 x DP6 with
// the rank order tp-pp-dp, 50 iterations of gradients allreduced after the
// pipeline. pack gives a nodes 0-46 and 127, b nodes 47-93 and 126: rack 1
// (nodes 32-63) holds 15 nodes of a and 17 of b. A stage's DP ring strides
// over its job's nodes (node = stage + 8 dp), so every one of the 8 stages'
// rings of a rail crosses into rack 1 and out of it: 8 flows of a and 8 of b
// on each direction of each rail's uplink of rack 1, which carries
// 32 x 50 GB/s / 4 = 400 GB/s. Alone, 8 flows of 50 GB/s fit; together each
// gets 25 GB/s. A ring step carries G/d, G = P x 2 bytes / (t p) =
// 5.46875 GB, and an iteration takes 2(d-1) = 10 of them: 9.115 GB a hop,
// 0.1823 s alone, 0.3646 s together. Each job loses 50 x 0.1823 = 9.115 s,
// all to the other, split evenly over the 16 uplink directions of rack 1.
constexpr double kPairHopBytes = 2.0 * (6 - 1) / 6 * (1.75e11 * 2 / 64);
constexpr double kPairLost = 50 * (kPairHopBytes / 25e9 - kPairHopBytes / 50e9);

GcsimRun run_bundled_pair(const std::string& workload, const std::string& out, const char* fidelity) {
  return run_simulation(scenario("clusters/h100-rails-1024gpu-4to1.json"), workload, out,
                        {"--fidelity", fidelity, "--contention", "--no-wall-time"});
}

TEST(Contention, TheBundledLlmPairLosesTheDoubledDataParallelTimeToEachOtherOnRackOneUplinks) {
  ScratchDir dir;
  ASSERT_EQ(run_bundled_pair(scenario("workloads/llm-contended-pair.json"), dir / "pair", "job").exit_code, 0);
  const auto jobs = read_jobs_csv(dir / "pair");
  const auto rows = read_contention_csv(dir / "pair");
  for (const auto& [name, other] : {std::pair{"gpt3-175b-a", "gpt3-175b-b"}, std::pair{"gpt3-175b-b", "gpt3-175b-a"}}) {
    for (int rail = 0; rail < 8; ++rail)
      for (const char* way : {"_UP", "_DOWN"}) {
        const std::string link = "rack1-rail" + std::to_string(rail) + "-uplink" + way;
        EXPECT_NEAR(rows.at({name, other, link}).lost, kPairLost / 16, 1e-6 * kPairLost) << name << " " << link;
      }
    EXPECT_NEAR(lost_by(rows, name), kPairLost, 1e-6 * kPairLost) << name;
    // Against the uncontended time (the closed form, which leaves out the
    // latencies, 60 us an iteration here), the run time shared is longer by
    // the loss, within a thousandth of it.
    const JobRow& job = jobs.at(name);
    EXPECT_NEAR(job.end - job.start - job.uncontended, kPairLost, 1e-3 * kPairLost) << name;
    EXPECT_GT(job.end - job.start, 1.05 * job.uncontended) << name;
  }
  const nlohmann::json figures = read_summary(dir / "pair")["contention"];
  EXPECT_EQ(figures["share_lost_over_5pct"], 1.0);
  EXPECT_NEAR(figures["lost_seconds"].get<double>(), 2 * kPairLost, 1e-6 * kPairLost);
  ASSERT_FALSE(figures["most_contended_links"].empty());
  EXPECT_EQ(figures["most_contended_links"][0]["link"].get<std::string>().rfind("rack1-rail", 0), 0u);
}

// Each job alone on the placement it had in the pair: a alone gets the same
// GPUs; b gets its own behind a job of 384 GPUs that only holds them (no
// traffic). Alone, each takes its uncontended time (within the latencies
// the closed form leaves out, 3 ms in 45 s); shared, exactly the loss more.
TEST(Contention, EachJobOfTheBundledLlmPairAloneOnItsPlacementTakesItsUncontendedTime) {
  ScratchDir dir;
  ASSERT_EQ(run_bundled_pair(scenario("workloads/llm-contended-pair.json"), dir / "pair", "job").exit_code, 0);
  const auto shared = read_jobs_csv(dir / "pair");
  nlohmann::json pair = nlohmann::json::parse(read_text(scenario("workloads/llm-contended-pair.json")));
  const nlohmann::json holder = {
      {"id", "holder"}, {"submit", 0}, {"gpus", 384}, {"duration", {{"seconds", 1000}, {"gpu_type", "H100"}}}};
  const std::vector<std::pair<std::string, std::vector<nlohmann::json>>> alone{
      {"gpt3-175b-a", {pair["jobs"][0]}}, {"gpt3-175b-b", {holder, pair["jobs"][1]}}};
  for (const auto& [name, jobs] : alone) {
    const auto workload = dir.write(name + ".json", workload_json(jobs));
    ASSERT_EQ(run_bundled_pair(workload, dir / name, "job").exit_code, 0) << name;
    const JobRow& row = read_jobs_csv(dir / name).at(name);
    EXPECT_EQ(row.placement, shared.at(name).placement) << name;
    EXPECT_NEAR(row.end - row.start, row.uncontended, 1e-4 * row.uncontended) << name;
    const double shared_run = shared.at(name).end - shared.at(name).start;
    EXPECT_NEAR(shared_run - (row.end - row.start), kPairLost, 1e-6 * kPairLost) << name;
    EXPECT_TRUE(read_contention_csv(dir / name).empty()) << name;
  }
}

// Job fidelity merges a job's iterations into rounds; on the contended pair
// it agrees with every iteration simulated within 5%, the loss and its
// split included.
TEST(Contention, TheBundledLlmPairEndsWithinFivePercentAtJobAndIterationFidelity) {
  ScratchDir dir;
  for (const char* fidelity : {"job", "iteration"})
    ASSERT_EQ(run_bundled_pair(scenario("workloads/llm-contended-pair.json"), dir / fidelity, fidelity).exit_code, 0);
  const auto coarse = read_jobs_csv(dir / "job");
  const auto exact = read_jobs_csv(dir / "iteration");
  for (const char* name : {"gpt3-175b-a", "gpt3-175b-b"}) {
    EXPECT_EQ(coarse.at(name).placement, exact.at(name).placement) << name;
    EXPECT_NEAR(coarse.at(name).end, exact.at(name).end, 0.05 * exact.at(name).end) << name;
    EXPECT_NEAR(lost_by(read_contention_csv(dir / "job"), name), lost_by(read_contention_csv(dir / "iteration"), name),
                0.05 * kPairLost)
        << name;
  }
}

// gcsim compare --contention: each run writes who slowed whom, and with
// matplotlib the plots add the runs' slowdown per job and link heatmap.
TEST(Contention, CompareRunsEachPolicyWithItAndPlotsIt) {
  ScratchDir dir;
  const auto cluster_file = dir.write("cluster.json", three_small_nodes().to_json());
  const auto workload =
      dir.write("jobs.json", workload_json({training_job("a", 0, 3, kFlops, kGradient, kIterations),
                                            training_job("b", 0, 3, kFlops, kGradient, kIterations)}));
  const bool plots = std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") == 0;
  if (plots) setenv("GCSIM_PYTHON", "/usr/bin/python3", 1);
  const GcsimRun run =
      run_gcsim({"compare", "--policies", "fifo,gang", "--cluster", cluster_file, "--workload", workload, "--out",
                 dir / "cmp", "--quiet", "--contention", "--plots", plots ? "yes" : "no"});
  if (plots) unsetenv("GCSIM_PYTHON");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* policy : {"fifo", "gang"}) {
    const auto rows = read_contention_csv(dir / (std::string("cmp/runs/") + policy));
    EXPECT_NEAR(lost_by(rows, "a"), 0.4, 1e-6) << policy;
    if (plots) {
      EXPECT_EQ(read_text(dir / (std::string("cmp/contention_") + policy + ".png")).rfind("\x89PNG", 0), 0u);
    }
  }
}

}  // namespace
}  // namespace gcsim::testing
