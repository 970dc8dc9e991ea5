#include "sim/report/contention_outputs.hpp"

#include <cstddef>
#include <string>

#include "sim/core/number_text.hpp"
#include "sim/report/row_block_writer.hpp"
#include "sim/report/run_outputs.hpp"

namespace gcsim {

void write_contention_csv(std::ostream& out, const std::vector<JobSpec>& jobs, const ContentionReport& report) {
  RowBlockWriter rows(out);
  rows.text("job,other_job,link,seconds_shared,seconds_lost\n");
  for (const ContentionShare& share : report.shares) {
    rows.text(csv_field(jobs[share.job].id)).character(',');
    rows.text(share.other == kNoJob ? "-" : csv_field(jobs[share.other].id)).character(',');
    rows.text(share.link == ContentionShare::kNoLink ? "-" : csv_field(report.links[share.link].name)).character(',');
    rows.text(exact_number(share.shared_seconds)).character(',').text(exact_number(share.lost_seconds));
    rows.character('\n');
    rows.end_row();
  }
  rows.flush();
}

void write_link_utilization_csv(std::ostream& out, const ContentionReport& report) {
  RowBlockWriter rows(out);
  rows.text("link,time,used\n");
  for (const LinkUse& use : report.busiest) {
    const std::string link = csv_field(report.links[use.link].name);
    for (std::size_t bin = 0; bin < use.used.size(); ++bin) {
      rows.text(link).character(',').text(exact_number(static_cast<double>(bin) * report.bin_width));
      rows.character(',').text(exact_number(use.used[bin])).character('\n');
      rows.end_row();
    }
  }
  rows.flush();
}

nlohmann::ordered_json contention_summary_json(const ContentionReport& report) {
  std::size_t ran = 0;
  std::size_t hurt[std::size(kHurtShares)] = {};
  double communication = 0, alone = 0, lost = 0;
  for (const JobContention& job : report.jobs) {
    communication += job.communication_seconds;
    alone += job.alone_seconds;
    lost += job.lost_seconds;
    if (!(job.run_seconds > 0)) continue;
    ++ran;
    for (std::size_t k = 0; k < std::size(kHurtShares); ++k)
      if (job.lost_seconds > kHurtShares[k] * job.run_seconds) ++hurt[k];
  }
  const auto share = [ran](std::size_t jobs) { return ran > 0 ? static_cast<double>(jobs) / ran : 0.0; };
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (const LinkUse& use : report.most_lost)
    links.push_back({{"link", report.links[use.link].name}, {"seconds_lost", use.lost_seconds}});
  return {{"jobs_ran", ran},
          {"share_lost_over_5pct", share(hurt[0])},
          {"share_lost_over_20pct", share(hurt[1])},
          {"communication_seconds", communication},
          {"alone_seconds", alone},
          {"lost_seconds", lost},
          {"most_contended_links", std::move(links)},
          {"bin_width_s", report.bin_width}};
}

}  // namespace gcsim
