// fuzz_csv_records: the one CSV record reader (sim/io/csv_records.hpp) and
// the numbered lines under it (text_lines.hpp), on any bytes. The input's
// first byte picks the delimiter (';' or a tab, else ','), the rest is the
// file. Rejections are InputErrors (a quote never closed, another
// encoding). What is read must read back: the records written again, every
// field quoted, are read as the same fields, on lines that increase.
#include <string>
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "sim/io/csv_records.hpp"

namespace {

// Every field quoted, a quote doubled: whatever it holds, a record reads back as written.
std::string written(const std::vector<gcsim::CsvRecord>& records, char delimiter) {
  std::string text;
  for (const gcsim::CsvRecord& record : records) {
    for (std::size_t f = 0; f < record.fields.size(); ++f) {
      if (f > 0) text += delimiter;
      text += '"';
      for (char c : record.fields[f]) text += c == '"' ? std::string("\"\"") : std::string(1, c);
      text += '"';
    }
    text += '\n';
  }
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = gcsim::fuzz;
  const std::string input = fuzz::input_text(data, size);
  const char delimiter = !input.empty() && (input[0] == ';' || input[0] == '\t') ? input[0] : ',';
  const std::string text = input.empty() ? input : input.substr(1);
  gcsim::csv_fields(text, delimiter);
  std::vector<gcsim::CsvRecord> records;
  if (fuzz::rejected([&] { records = gcsim::read_csv_records(text, "t.csv", delimiter); })) return 0;
  for (std::size_t r = 1; r < records.size(); ++r)
    if (records[r].line <= records[r - 1].line) fuzz::finding("a record's line does not follow the one before");
  std::vector<gcsim::CsvRecord> again;
  try {
    again = gcsim::read_csv_records(written(records, delimiter), "again.csv", delimiter);
  } catch (const gcsim::InputError& e) {
    fuzz::finding(std::string("the records written again are refused: ") + e.what());
  }
  if (again.size() != records.size()) fuzz::finding("the records written again are not as many");
  for (std::size_t r = 0; r < records.size(); ++r)
    if (again[r].fields != records[r].fields) fuzz::finding("a record written again reads back otherwise");
  return 0;
}
