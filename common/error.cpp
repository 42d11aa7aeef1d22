#include "common/error.h"

namespace socsim {
namespace {
std::string compose(const std::string& file, int line, const std::string& path,
                    const std::string& message) {
  std::string s;
  if (!file.empty()) {
    s += file;
    if (line > 0) s += ":" + std::to_string(line);
    s += ": ";
  }
  if (!path.empty()) s += path + ": ";
  return s + message;
}
}  // namespace

InputError::InputError(std::string file, int line, std::string path, const std::string& message)
    : std::runtime_error(compose(file, line, path, message)),
      file_(std::move(file)),
      line_(line),
      path_(std::move(path)) {}

}  // namespace socsim
