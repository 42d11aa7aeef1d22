#include "calibration/ingest/layouts.h"

namespace socsim::ingest {

const char* layoutName(Layout l) {
  switch (l) {
    case Layout::Spaced: return "spaced";
    case Layout::Pipe: return "pipe";
    case Layout::CellPerLine: return "cell-per-line";
    case Layout::Mcu: return "mcu";
  }
  return "?";
}

// Placeholder detection; the layout work refines it.
std::optional<Layout> detectLayout(const std::string& text) {
  if (text.find("|---|") != std::string::npos) return Layout::Pipe;
  if (text.find("\nTable 2.") != std::string::npos) return Layout::CellPerLine;
  if (text.find("MCU+ SDK") != std::string::npos) return Layout::Mcu;
  if (text.find("\nTable: ") != std::string::npos) return Layout::Spaced;
  return std::nullopt;
}

}  // namespace socsim::ingest
