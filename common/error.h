#pragma once
/// @file error.h
/// @brief Error types shared by every socsim library.
///
/// `InputError` is bad input (usage, config, measured data, a guide): the CLI maps it to exit 2.
/// Anything else escaping to `main` is an internal error (exit 1).
#include <stdexcept>
#include <string>

namespace socsim {

/// Bad input. `where()` names the file (and line / YAML path where known); `what()` is the
/// full message "FILE:LINE: PATH: message" ready to print.
class InputError : public std::runtime_error {
 public:
  /// @param file   file the bad input came from ("" when it came from the command line)
  /// @param line   1-based line, or 0 when unknown
  /// @param path   YAML path / CSV column / CLI option, or "" when not applicable
  /// @param message what was wrong and what was expected
  InputError(std::string file, int line, std::string path, const std::string& message);
  explicit InputError(const std::string& message) : InputError("", 0, "", message) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& path() const { return path_; }

 private:
  std::string file_;
  int line_;
  std::string path_;
};

}  // namespace socsim
