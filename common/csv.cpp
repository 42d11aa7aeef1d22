#include "common/csv.h"

#include <ostream>

#include "common/error.h"

namespace socsim::csv {

std::string escape(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string joinRecord(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += escape(fields[i]);
  }
  return out;
}

void writeRecord(std::ostream& os, const std::vector<std::string>& fields) {
  os << joinRecord(fields) << '\n';
}

std::vector<std::vector<std::string>> parse(const std::string& text, const std::string& file) {
  return parse(text, file, nullptr);
}

std::vector<std::vector<std::string>> parse(const std::string& text, const std::string& file,
                                            std::vector<int>* recordLines) {
  if (recordLines) recordLines->clear();
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool inQuotes = false, fieldStarted = false;
  int line = 1, recordLine = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inQuotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          inQuotes = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty()) {
      inQuotes = true;
      fieldStarted = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      fieldStarted = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (fieldStarted || !field.empty() || !record.empty()) {
        record.push_back(std::move(field));
        records.push_back(std::move(record));
        if (recordLines) recordLines->push_back(recordLine);
      }
      record.clear();
      field.clear();
      fieldStarted = false;
      ++line;
      recordLine = line;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (inQuotes) throw InputError(file, recordLine, "", "unterminated quoted CSV field");
  if (fieldStarted || !field.empty() || !record.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
    if (recordLines) recordLines->push_back(recordLine);
  }
  return records;
}

}  // namespace socsim::csv
